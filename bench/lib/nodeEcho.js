// Keystroke echo measured in Node, without a browser: a letter is written to a shell, the
// time until its echo comes back is one sample. The raw node-pty bash (the limit) and the
// engine over its WebSocket (the engine's own share of the echo path) are sampled in turn.
import ptyModule from 'node-pty';
import { EngineClient, atPrompt } from './engineClient.js';
import { latencyMarksFile } from './latencyMarks.js';
import { sleep } from './stats.js';
import { startTandem } from './tandem.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

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
    /** What arrived since the last reset. */
    text: () => out,
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

/**
 * A letter written to a bash in node-pty (raw: the floor of any terminal's echo time) and to a
 * pane of `tandem web` over its WebSocket (engine), alternately, until each echo is read: load
 * from elsewhere on the machine hits both alike. The engine's latency marks split each engine
 * sample into its hops (ms): Input frame → key in the pty (`toPty`), key in the pty → echo
 * read (`toEcho`, the shell's share), echo read → Output frame sent (`toFrame`, and `frameQueued`: how much of that the engine waited for a CPU); `outside` is
 * the rest of the round trip (the WebSocket both ways, the client).
 */
export async function interleavedEcho(home, { count = 200, warmup = 10, pauseMs = 10, perLine = 40 } = {}) {
  const marks = latencyMarksFile();
  const raw = await openRawPty(home);
  let tandem;
  let client;
  let paneId;
  const rawTimes = [];
  const engine = [];
  try {
    tandem = await startTandem({ env: marks.env });
    client = await EngineClient.connect(tandem);
    await client.request('hello', {});
    ({ paneId } = await client.request('pane.create', { cols: 120, rows: 40 }));
    let inputs = 0;
    let received = 0;
    let receivedAtReset = 0;
    const channel = outputChannel((text) => {
      inputs++;
      client.type(paneId, text);
    });
    const reset = channel.reset;
    channel.reset = () => {
      receivedAtReset = received;
      reset();
    };
    client.onOutput = (_id, payload) => {
      received += payload.length;
      channel.push(payload.toString('latin1'));
    };
    await channel.wait(atPrompt, 20_000, 'the prompt');
    await sleep(300);
    const rawSample = sampler(raw.channel);
    const engineSample = sampler(channel);
    for (let i = 0; i < count + warmup; i++) {
      const letter = LETTERS[i % LETTERS.length];
      const newLine = i > 0 && i % perLine === 0;
      // Alternate which goes first, so neither always follows the other's work.
      for (const which of i % 2 === 0 ? ['raw', 'engine'] : ['engine', 'raw']) {
        if (which === 'raw') {
          const ms = await rawSample(letter, newLine);
          if (i >= warmup) rawTimes.push(ms);
        } else {
          if (newLine) await engineSample.clearLine();
          const input = inputs;
          const ms = await engineSample(letter, false);
          const echoEnd = receivedAtReset + channel.text().indexOf(letter) + 1;
          if (i >= warmup) engine.push({ ms, input, echoEnd });
        }
      }
      await sleep(pauseMs + Math.random() * pauseMs);
    }
  } finally {
    client?.close();
    await tandem?.stop();
    raw.kill();
  }
  try {
    return { raw: rawTimes, engine: engine.map(({ ms }) => ms), hops: echoHops(marks.read(), paneId, engine) };
  } finally {
    marks.cleanup();
  }
}

/**
 * A command at the prompt: `true` typed into a bash in node-pty without any integration
 * (raw) and into a pane of `tandem web` (its bash with Tandem's integration), alternately;
 * once the line is echoed, Enter, until the next prompt is read (ms). The difference is what
 * a command costs at the prompt with Tandem: the integration's marks around it (C, D, the
 * cwd, A and B) and the engine's hops both ways.
 */
export async function interleavedCommand(home, { count = 40, warmup = 4, pauseMs = 20 } = {}) {
  const raw = await openRawPty(home);
  let tandem;
  let client;
  const rawTimes = [];
  const engineTimes = [];
  try {
    tandem = await startTandem();
    client = await EngineClient.connect(tandem);
    await client.request('hello', {});
    const { paneId } = await client.request('pane.create', { cols: 120, rows: 40 });
    const channel = outputChannel((text) => client.type(paneId, text));
    client.onOutput = (_id, payload) => channel.push(payload.toString('latin1'));
    await channel.wait(atPrompt, 20_000, 'the prompt');
    await sleep(300);
    const enterToPrompt = async (target) => {
      target.reset();
      target.write('true');
      await target.wait((out) => out.includes('true'), 5_000, 'the echo of true');
      await sleep(pauseMs);
      target.reset();
      const t0 = performance.now();
      target.write('\r');
      return (await target.wait(atPrompt, 5_000, 'the prompt after true')) - t0;
    };
    for (let i = 0; i < count + warmup; i++) {
      for (const which of i % 2 === 0 ? ['raw', 'engine'] : ['engine', 'raw']) {
        const ms = await enterToPrompt(which === 'raw' ? raw.channel : channel);
        if (i >= warmup) (which === 'raw' ? rawTimes : engineTimes).push(ms);
      }
      await sleep(pauseMs + Math.random() * pauseMs);
    }
  } finally {
    client?.close();
    await tandem?.stop();
    raw.kill();
  }
  return { raw: rawTimes, engine: engineTimes };
}

/** One sample: write `letter`, resolve with the ms until its echo is read. `clearLine` empties bash's line. */
function sampler(channel) {
  const clearLine = async () => {
    channel.reset();
    channel.write('\x15');
    // bash redraws the line: back to the prompt, erase to the end of line.
    await channel.wait((out) => out.includes('\x1b[K'), 5_000, 'the cleared line');
  };
  const sample = async (letter, newLine) => {
    if (newLine) await clearLine();
    channel.reset();
    const t0 = performance.now();
    channel.write(letter);
    return (await channel.wait((out) => out.includes(letter), 5_000, `the echo of ${letter}`)) - t0;
  };
  sample.clearLine = clearLine;
  return sample;
}

function echoHops(marks, paneId, samples) {
  const inputs = marks.all('input', paneId);
  const written = marks.all('input-written', paneId);
  const hops = { toPty: [], toEcho: [], toFrame: [], frameQueued: [], outside: [] };
  for (const { ms, input, echoEnd } of samples) {
    if (!inputs[input] || !written[input]) throw new Error(`the engine's marks lack Input frame ${input} (${inputs.length} frames, ${written.length} written)`);
    const { readAt, toFrame, queued } = marks.outputHop(paneId, echoEnd);
    const toPty = written[input].at - inputs[input].at;
    const toEcho = readAt - written[input].at;
    hops.toPty.push(toPty);
    hops.toEcho.push(toEcho);
    hops.toFrame.push(toFrame);
    if (queued !== undefined) hops.frameQueued.push(queued);
    hops.outside.push(ms - toPty - toEcho - toFrame);
  }
  return hops;
}
