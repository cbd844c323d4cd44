// Keystroke echo measured in Node, without a browser: a letter is written to a shell, the
// time until its echo comes back is one sample. Used for the raw node-pty bash (the limit)
// and for the engine over its WebSocket (the engine's own share of the echo path).
import ptyModule from 'node-pty';
import { EngineClient, atPrompt } from './engineClient.js';
import { sleep } from './stats.js';
import { startTandem } from './tandem.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** `channel`: { write(text), wait(predicate on accumulated output, ms) → Promise, reset() }. */
async function samples(channel, { count = 200, warmup = 10, pauseMs = 10, perLine = 40 }) {
  const result = [];
  for (let i = 0; i < count + warmup; i++) {
    if (i > 0 && i % perLine === 0) {
      channel.reset();
      channel.write('\x15');
      // bash redraws the line: back to the prompt, erase to the end of line.
      await channel.wait((out) => out.includes('\x1b[K'), 5_000, 'the cleared line');
    }
    const letter = LETTERS[i % LETTERS.length];
    channel.reset();
    const t0 = performance.now();
    channel.write(letter);
    const t1 = await channel.wait((out) => out.includes(letter), 5_000, `the echo of ${letter}`);
    if (i >= warmup) result.push(t1 - t0);
    await sleep(pauseMs + Math.random() * pauseMs);
  }
  return result;
}

/** `channel.wait` resolves with the performance.now() at which the predicate first held. */
export function outputChannel(write) {
  let out = '';
  let waiter;
  return {
    write,
    push(text) {
      out += text;
      waiter?.();
    },
    reset() {
      out = '';
    },
    wait(predicate, ms, what) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(out.slice(-80))}`)), ms);
        waiter = () => {
          if (!predicate(out)) return;
          const now = performance.now();
          clearTimeout(timer);
          waiter = undefined;
          resolve(now);
        };
        waiter();
      });
    },
  };
}

/** bash in node-pty, read in this process: the floor of any terminal's echo time. */
export async function rawPtyEcho(home, options = {}) {
  const { channel, kill } = await openRawPty(home);
  try {
    return await samples(channel, options);
  } finally {
    kill();
  }
}

/** A bash in node-pty (no Tandem, no shell integration) at its prompt, for callers' own samples. */
export async function openRawPty(home) {
  const pty = ptyModule.spawn('/bin/bash', ['--login'], { name: 'xterm-256color', cols: 120, rows: 40, cwd: home.home, env: home.env, encoding: null });
  const channel = outputChannel((text) => pty.write(text));
  pty.onData((data) => channel.push(data.toString('latin1')));
  try {
    await channel.wait(atPrompt, 15_000, 'the prompt');
  } catch (error) {
    pty.kill();
    throw error;
  }
  return { channel, kill: () => pty.kill() };
}

/** The engine's pane over the browser-mode WebSocket, received by a Node client. */
export async function engineEcho(options = {}) {
  const tandem = await startTandem();
  let client;
  try {
    client = await EngineClient.connect(tandem);
    await client.request('hello', {});
    const pane = await client.request('pane.create', { cols: 120, rows: 40 });
    const channel = outputChannel((text) => client.type(pane.paneId, text));
    client.onOutput = (_id, payload) => channel.push(payload.toString('latin1'));
    await channel.wait(atPrompt, 20_000, 'the prompt');
    await sleep(300);
    return await samples(channel, options);
  } finally {
    client?.close();
    await tandem.stop();
  }
}
