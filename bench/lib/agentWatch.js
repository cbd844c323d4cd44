// What a Node client of `tandem web` has seen of the agent and its panes, for the agent suite:
// each pane's output with the arrival time of every frame, the latest agent.conversation view
// and every agent.delta.
import { StringDecoder } from 'node:string_decoder';
import { atPrompt } from './engineClient.js';

/**
 * What the client has seen: each pane's output (with the arrival time of every frame, so a
 * match can be timed by the frame that completed it), the latest agent.conversation view and
 * every agent.delta. `until(check)` re-runs `check` on every frame and event.
 */
export class Watch {
  view;
  deltas = [];
  #panes = new Map();
  #checks = new Set();

  constructor(client) {
    this.client = client;
    client.onOutput = (paneId, payload) => {
      const at = performance.now();
      const pane = this.output(paneId);
      pane.text += pane.decoder.write(payload);
      pane.arrivals.push({ end: pane.text.length, at });
      this.#poke();
    };
    client.onEvent = (event, payload) => {
      const at = performance.now();
      if (event === 'agent.conversation') this.view = payload;
      else if (event === 'agent.delta') this.deltas.push({ ...payload, at });
      this.#poke();
    };
  }

  output(paneId) {
    let pane = this.#panes.get(paneId);
    if (!pane) {
      pane = { text: '', arrivals: [], decoder: new StringDecoder('utf8') };
      this.#panes.set(paneId, pane);
    }
    return pane;
  }

  /**
   * `needle` in the pane's output at or after `from`: { index, at (arrival of its last char),
   * byteEnd (the stream's bytes up to and including its last char) }.
   */
  find(paneId, needle, from = 0) {
    const pane = this.output(paneId);
    const index = pane.text.indexOf(needle, from);
    if (index < 0) return undefined;
    const last = index + needle.length - 1;
    const at = pane.arrivals.find((frame) => frame.end > last).at;
    return { index, at, get byteEnd() { return Buffer.byteLength(pane.text.slice(0, last + 1)); } };
  }

  atPrompt(paneId) {
    return atPrompt(this.output(paneId).text.slice(-4_000));
  }

  /** The agent is idle and its last item is the finished assistant answer `answer`. */
  idleAfter(answer) {
    const last = this.view?.items.at(-1);
    return this.view?.status === 'idle' && last?.role === 'assistant' && !last.streaming && last.text === answer;
  }

  until(check, ms, what) {
    return new Promise((resolve, reject) => {
      const entry = () => {
        const value = check();
        if (!value) return;
        this.#checks.delete(entry);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.#checks.delete(entry);
        reject(new Error(`timed out after ${ms} ms waiting for ${what}${this.view ? ` (agent ${this.view.status}${this.view.statusDetail ? `: ${this.view.statusDetail}` : ''})` : ''}`));
      }, ms);
      this.#checks.add(entry);
      entry();
    });
  }

  #poke() {
    for (const check of [...this.#checks]) check();
  }
}
