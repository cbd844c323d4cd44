import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Pane } from '../../src/main/panes/pane';
import { waitUntil } from '../support/waitUntil';
import { makeTempDir, removeDir, SHELLS } from './harness/shellSession';

// Keys go to the shell on the engine's own thread: node-pty alone writes them through libuv's
// thread pool, where they wait behind whatever file I/O is in flight.

let pane: Pane | undefined;
let home: string | undefined;
let releasePool: (() => Promise<void>) | undefined;
afterEach(async () => {
  await releasePool?.();
  releasePool = undefined;
  await pane?.close();
  pane = undefined;
  if (home) removeDir(home);
  home = undefined;
});

async function bashPane(): Promise<{ pane: Pane; output: () => string }> {
  home = makeTempDir('pty-write');
  let text = '';
  pane = new Pane({
    id: 9,
    shellPath: SHELLS.bash,
    cwd: home,
    cols: 120,
    rows: 30,
    scrollback: 1_000,
    integration: true,
    login: false,
    env: { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8' },
  });
  pane.attach({ output: (_id, bytes) => (text += Buffer.from(bytes).toString('utf8')), event: () => {} });
  pane.start();
  await waitUntil(() => pane!.state === 'PROMPT', 'the first prompt');
  return { pane, output: () => text };
}

/**
 * Every thread of libuv's pool blocked in open() of a FIFO nobody writes to, the way a slow
 * disk or a hung network mount holds them; the returned function lets them go.
 */
function blockThreadPool(dir: string): () => Promise<void> {
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4) + 2;
  const fifos = Array.from({ length: threads }, (_, index) => join(dir, `fifo-${index}`));
  execFileSync('mkfifo', fifos);
  let opened = false;
  const opening = Promise.all(fifos.map((fifo) => open(fifo, 'r'))).finally(() => (opened = true));
  return async () => {
    // A writer lets a blocked open() through; those still queued for a thread get theirs on a later round.
    while (!opened) {
      for (const fifo of fifos) {
        try {
          closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
        } catch {
          // ENXIO: no reader on that one yet.
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    for (const handle of await opening) await handle.close();
  };
}

describe('keys to the shell', () => {
  it('reach it while every thread of the pool waits on file I/O', async () => {
    const { pane, output } = await bashPane();
    releasePool = blockThreadPool(home!);
    pane.write('echo "keys-$((6 * 7))"\r');
    await waitUntil(() => output().includes('keys-42'), 'the command to run with the pool blocked');
  });

  it('a paste larger than the kernel takes at once arrives whole and in order', async () => {
    const { pane } = await bashPane();
    const file = join(home!, 'pasted.txt');
    const lines = Array.from({ length: 4_000 }, (_, index) => `line ${index} ${'x'.repeat(40)}`);
    pane.write(`cat > '${file}'\r`);
    await waitUntil(() => pane.state === 'EXECUTING', 'cat to start');
    pane.write(`${lines.join('\r')}\r`);
    pane.write('\x04');
    await waitUntil(() => pane.state === 'PROMPT', 'cat to finish');
    expect(readFileSync(file, 'utf8')).toBe(`${lines.join('\n')}\n`);
  });
});
