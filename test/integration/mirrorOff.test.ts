import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MirrorThread } from '../../src/main/blocks/mirror/mirrorThread';
import { MIRROR_WINDOW } from '../../src/main/pty/flowPolicy';
import { EngineLog, type LogRecord } from '../../src/main/log/engineLog';
import { Pane } from '../../src/main/panes/pane';
import type { Events } from '../../src/shared/protocol';
import { makeTestHome, removeTestHome, testHomeEnv } from '../support/testHome';
import { waitUntil } from '../support/waitUntil';
import { shellTimeout } from '../support/shellTimeout';

/**
 * A real bash in a real pty, in a pane whose mirror thread cannot load (its file is missing,
 * as inside an app.asar that lacks it): the terminal must stay usable without the mirror.
 */

let pane: Pane | undefined;
let thread: MirrorThread | undefined;
let home: string | undefined;
afterEach(async () => {
  await pane?.close();
  await thread?.dispose();
  if (home) removeTestHome(home);
  pane = undefined;
  thread = undefined;
  home = undefined;
});


describe('a pane whose mirror thread cannot start', () => {
  it('keeps typing, output, resize and blocks working, says so once, and answers reads plainly', async () => {
    home = makeTestHome('tandem-mirror-off-');
    thread = new MirrorThread({ workerLocation: pathToFileURL(join(home, 'app.asar/out/main/mirrorWorker.js')) });
    const logFile = join(home, '.local/state/tandem/engine.log');
    const notices: Events['pane.notice'][] = [];
    let output = '';
    pane = new Pane({
      id: 3,
      shellPath: '/bin/bash',
      cwd: home,
      cols: 80,
      rows: 24,
      scrollback: 1_000,
      integration: true,
      login: true,
      env: testHomeEnv(home),
      log: new EngineLog({ file: logFile }),
      mirrorThread: thread,
    });
    const listener = {
      output: (_paneId: number, bytes: Uint8Array) => {
        output += Buffer.from(bytes).toString('latin1');
        // Keep only the tail: the flood below is larger than the test needs to hold.
        if (output.length > 100_000) output = output.slice(-50_000);
        pane!.acknowledge(bytes.byteLength);
      },
      event: <E extends keyof Events>(event: E, payload: Events[E]) => {
        if (event === 'pane.notice') notices.push(payload as Events['pane.notice']);
      },
    };
    pane.attach(listener);
    pane.start();
    const finished = () => pane!.blocks().filter((block) => block.endedAt !== undefined);

    await waitUntil(() => pane!.state === 'PROMPT', 'the first prompt');
    await waitUntil(() => notices.some((notice) => notice.message.includes('is off')), 'the notice that the mirror is off');

    // Typing and output.
    pane.write('echo "sum=$((6 * 7))"\r');
    await waitUntil(() => finished().length === 1 && pane!.state === 'PROMPT', 'the first block');
    // Output reaches the client batched, a little after the block's marks are read.
    await waitUntil(() => output.includes('sum=42'), 'the output');
    expect(finished()[0]).toMatchObject({ command: 'echo "sum=$((6 * 7))"', exitCode: 0, cwd: home, trusted: true });

    // Blocks keep their exit codes and cwd.
    pane.write('cd /tmp && false\r');
    await waitUntil(() => finished().length === 2 && pane!.state === 'PROMPT', 'the second block');
    expect(finished()[1]).toMatchObject({ exitCode: 1 });
    expect(pane.cwd).toBe('/tmp');

    // Resize reaches the shell.
    expect(pane.resize(100, 40)).toEqual({ cols: 100, rows: 40 });
    pane.write('stty size\r');
    await waitUntil(() => finished().length === 3 && pane!.state === 'PROMPT', 'stty size');
    await waitUntil(() => output.includes('40 100'), 'the new size');

    // More output than the mirror's flow window: nothing acknowledges it, and it must not hold the pty.
    const floodBytes = 2 * MIRROR_WINDOW.high;
    pane.write(`head -c ${floodBytes} /dev/zero | tr '\\0' x; echo; echo flood-done\r`);
    await waitUntil(() => finished().length === 4 && pane!.state === 'PROMPT', 'the flood to finish', 60_000);
    await waitUntil(() => output.includes('flood-done'), 'the end of the flood');
    expect(pane.info().streamOffset).toBeGreaterThan(floodBytes);

    // What needs the mirror answers at once, and says why it has nothing.
    const outputOf = await pane.outputOf(finished()[0]!.id);
    expect(outputOf?.text).toMatch(/^\[Tandem has no copy of this output: the mirror thread could not start: Cannot find module/);
    const reattached = await pane.reattach(listener);
    expect(reattached.snapshot).toContain('The screen from before cannot be shown');
    expect(reattached.blocks).toHaveLength(4);
    expect(await pane.snapshot(1_000)).toBe('');

    // Once in the pane, once in the engine log (with every failure), never a "lost" notice.
    const mirrorNotices = notices.filter((notice) => /screen (is off|was lost)/.test(notice.message));
    expect(mirrorNotices).toHaveLength(1);
    expect(mirrorNotices[0]).toMatchObject({ paneId: 3, level: 'warning' });
    expect(mirrorNotices[0]!.message).toMatch(/The terminal works as usual.*Restart Tandem/);
    const records = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LogRecord);
    const mirrorRecords = records.filter((record) => record.area === 'mirror');
    expect(mirrorRecords).toHaveLength(1);
    expect(mirrorRecords[0]!.message).toMatch(/^pane 3: the mirror is off: the mirror thread could not start/);
    expect(mirrorRecords[0]!.detail).toMatch(/5 failures within 60 s/);
    expect(thread.workerStarts).toBe(5);
  }, shellTimeout(120_000));
});
