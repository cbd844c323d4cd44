import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { MIRROR_THREAD_NICENESS } from '../../pty/flowPolicy';
import { MirrorHost } from './mirrorHost';
import type { MirrorCommand, MirrorEvent } from './mirrorProtocol';

// The mirror thread: parses every pane's output into its headless terminal, so that
// parsing never holds up the engine's main thread (pty reads, input, acks, batching).
if (!parentPort) throw new Error('mirrorWorker.ts runs as a worker thread');
const port = parentPort;

if (process.platform === 'linux') {
  // The mirror may lag during a flood (flow control bounds how far): the terminal the user
  // is watching gets the CPU first. On Linux, pid 0 means the calling thread only; other
  // systems would lower the whole engine, so there the thread keeps normal priority.
  try {
    setPriority(0, MIRROR_THREAD_NICENESS);
  } catch {
    // Not permitted (a sandbox); normal priority is fine.
  }
}

const host = new MirrorHost((event: MirrorEvent) => port.postMessage(event));
port.on('message', (commands: MirrorCommand[]) => {
  for (const command of commands) host.handle(command);
});
// Loaded: until now the engine holds the commands (a thread that fails to load loses none).
port.postMessage({ kind: 'ready' } satisfies MirrorEvent);
