import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { PaneMirror } from '../../src/main/blocks/mirror/paneMirror';
import { MirrorThread, mirrorThread, type MirrorOff } from '../../src/main/blocks/mirror/mirrorThread';
import { MIRROR_RESTART_POLICY } from '../../src/main/blocks/mirror/restartBackoff';

const mirrors: PaneMirror[] = [];
const threads: MirrorThread[] = [];
afterEach(async () => {
  mirrors.splice(0).forEach((mirror) => mirror.dispose());
  await Promise.all(threads.splice(0).map((thread) => thread.dispose()));
});

function open(cols = 40, rows = 5, scrollback = 100, thread?: MirrorThread) {
  const seen = { parsed: 0, lost: [] as string[], off: [] as MirrorOff[] };
  const mirror = new PaneMirror(cols, rows, scrollback, thread);
  mirror.onParsed((bytes) => (seen.parsed += bytes));
  mirror.onLost((reason) => seen.lost.push(reason));
  mirror.onOff((off) => seen.off.push(off));
  mirrors.push(mirror);
  return { mirror, seen };
}

function threadAt(workerLocation: URL | string, readyTimeoutMs?: number): MirrorThread {
  const thread = new MirrorThread({ workerLocation, readyTimeoutMs });
  threads.push(thread);
  return thread;
}

/** A worker script given as a data: URL (ES module). */
const workerSource = (source: string) => new URL(`data:text/javascript,${encodeURIComponent(source)}`);

/** Resolves when `mirror` hears that its thread is off. */
const offOf = (mirror: PaneMirror) => new Promise<MirrorOff>((resolve) => mirror.onOff(resolve));

/** CPU time (all threads of this process) and wall time from now until `done` resolves. */
async function costOf<T>(done: Promise<T>): Promise<{ value: T; cpuMs: number; wallMs: number }> {
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const value = await done;
  const cpu = process.cpuUsage(cpuBefore);
  return { value, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - wallBefore };
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** Nice values of this process's threads (Linux). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe('the mirror thread', () => {
  it('parses output in a worker thread and answers reads in order with the writes', async () => {
    const { mirror, seen } = open();
    mirror.write(bytes('$ one\r\n'));
    mirror.startBlock('b1');
    mirror.write(bytes('first\r\n'));
    mirror.endBlock('b1');
    const before = mirror.serialize();
    mirror.write(bytes('$ two\r\n'));
    mirror.startBlock('b2');
    mirror.write(bytes('second, still running'));
    // With how much the block printed in all, counted in the thread as it streamed.
    expect(await mirror.readBlock('b1')).toEqual({ text: 'first', truncated: false, lineCount: 1, printed: { lines: 1, bytes: 6, head: 'first' } });
    expect((await mirror.readBlock('b2'))?.text).toBe('second, still running');
    expect(await mirror.readBlock('unknown')).toBeUndefined();
    // The snapshot holds exactly what was written before it was asked for.
    expect(await before).toContain('first');
    expect(await before).not.toContain('two');
    expect(await mirror.screenText()).toContain('second, still running');
    expect(seen.parsed).toBe(bytes('$ one\r\nfirst\r\n$ two\r\nsecond, still running').byteLength);
    expect(mirrorThread().currentWorker).toBeDefined();
  });

  it('reports bracketed paste and the alternate screen after they change', async () => {
    const { mirror } = open();
    mirror.write(bytes('\x1b[?2004h'));
    await mirror.flushed();
    expect(mirror.bracketedPasteMode).toBe(true);
    expect(mirror.isAlternateScreen).toBe(false);
    mirror.write(bytes('\x1b[?1049h'));
    expect((await mirror.cursorLine()).alternateScreen).toBe(true);
    expect(mirror.isAlternateScreen).toBe(true);
  });

  it('reads the prompt line at a mark and starts a block on the row after it', async () => {
    const { mirror } = open();
    mirror.write(bytes('user@host:~$ make test'));
    await mirror.flushed();
    const mark = mirror.markCursorLine();
    mirror.write(bytes('\r\nbuilding\r\nok\r\nuser@host:~$ '));
    const line = await mirror.promptLine(mark);
    expect(line?.text).toBe('user@host:~$ make test');
    mirror.startBlockAtMark('heuristic', line!.startMark);
    expect((await mirror.readBlock('heuristic'))?.text).toBe('building\nok\nuser@host:~$');
  });

  it.runIf(process.platform === 'linux')('runs at a lower priority than the engine on Linux', async () => {
    const { mirror } = open();
    mirror.write(bytes('x'));
    await mirror.flushed();
    const nice = threadNiceValues();
    expect(nice).toContain(10);
    // The main thread keeps the niceness the process was started with (0, or more under `nice`).
    expect(nice[0]).toBe(getPriority());
    expect(nice[0]).toBeLessThan(10);
  });

  it('survives the thread dying: pending reads get an answer, the pane is told, a new thread takes over', async () => {
    const { mirror, seen } = open();
    mirror.write(bytes('before\r\n'));
    await mirror.flushed();
    const worker = mirrorThread().currentWorker!;
    const pending = mirror.screenText();
    await worker.terminate();
    expect(typeof (await pending)).toBe('string');
    expect(seen.lost).toHaveLength(1);
    expect(seen.lost[0]).toMatch(/exit code/);
    mirror.write(bytes('after\r\n'));
    expect(await mirror.screenText()).toBe('after');
    expect(mirrorThread().currentWorker).not.toBe(worker);
    expect(mirrorThread().off).toBeUndefined();
    expect(seen.off).toEqual([]);
  });
});

describe('a mirror thread that fails', () => {
  it('that cannot load (its file is missing) is started a bounded number of times, then stays off and says so once', async () => {
    const thread = threadAt(pathToFileURL('/nonexistent/tandem/out/main/mirrorWorker.js'));
    const { mirror, seen } = open(40, 5, 100, thread);
    mirror.write(bytes('$ ls\r\n'));
    mirror.startBlock('b1');
    mirror.write(bytes('file\r\n'));
    mirror.endBlock('b1');
    // Reads asked while it keeps failing wait for it, then get a clear answer.
    const block = mirror.readBlock('b1');
    const snapshot = mirror.snapshot();
    const { value: off, cpuMs, wallMs } = await costOf(offOf(mirror));

    expect(off.reason).toMatch(/^the mirror thread could not start: Cannot find module .*mirrorWorker\.js/);
    expect(off.detail).toMatch(/5 failures within 60 s/);
    expect(off.detail.match(/failed to load after/g)).toHaveLength(5);
    // Before the backoff it was started ~20 times a second, burning ~90% of a core until the
    // process ended; now exactly maxFailures starts, and the CPU they cost is a fraction of
    // the time they took (most of it is waiting).
    expect(thread.workerStarts).toBe(MIRROR_RESTART_POLICY.maxFailures);
    expect(cpuMs).toBeLessThan(wallMs / 2);
    expect(seen.off).toHaveLength(1);
    expect(seen.lost).toEqual([]);
    expect(mirror.available).toBe(false);

    expect((await block)?.text).toMatch(/^\[Tandem has no copy of this output: the mirror thread could not start/);
    expect((await snapshot).text).toContain('The screen from before cannot be shown: the mirror thread could not start');
    // From now on nothing waits and nothing starts a thread again.
    mirror.write(bytes('more\r\n'));
    expect(await mirror.screenText()).toBe('');
    expect(await mirror.serialize()).toBe('');
    expect(await mirror.readBlock('b2')).toMatchObject({ lineCount: 1, truncated: false });
    await mirror.flushed();
    // A pane opened later hears it too, once.
    const later = open(40, 5, 100, thread);
    expect((await offOf(later.mirror)).reason).toBe(off.reason);
    expect(later.seen.off).toHaveLength(1);
    expect(thread.workerStarts).toBe(MIRROR_RESTART_POLICY.maxFailures);
    expect(seen.off).toHaveLength(1);
  });

  it('that throws while loading goes off with its error', async () => {
    const thread = threadAt(workerSource('throw new Error("mirror bundle is broken");'));
    const { mirror, seen } = open(40, 5, 100, thread);
    mirror.write(bytes('hello'));
    const off = await offOf(mirror);
    expect(off.reason).toBe('the mirror thread could not start: mirror bundle is broken (exit code 1)');
    expect(off.detail).toContain('Error: mirror bundle is broken');
    expect(thread.workerStarts).toBe(MIRROR_RESTART_POLICY.maxFailures);
    expect(seen.lost).toEqual([]);
  });

  it('at a location Node refuses outright goes off the same way', async () => {
    const thread = threadAt('relative/mirrorWorker.js');
    const { mirror } = open(40, 5, 100, thread);
    mirror.write(bytes('hello'));
    expect((await offOf(mirror)).reason).toMatch(/^the mirror thread could not start: it could not be started: /);
    expect(thread.workerStarts).toBe(MIRROR_RESTART_POLICY.maxFailures);
  });

  it('that never says it is ready is stopped after a while and counts as failed', async () => {
    // Loads, listens, never answers: without the limit its commands would wait for ever.
    const thread = threadAt(workerSource(`import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => {});`), 300);
    const { mirror, seen } = open(40, 5, 100, thread);
    mirror.write(bytes('hello'));
    const pending = mirror.screenText();
    const off = await offOf(mirror);
    // (Stopped before its thread got going, a worker exits with code 0, else 1.)
    expect(off.reason).toMatch(/^the mirror thread could not start: it did not start within 0\.3 s \(exit code [01]\)$/);
    expect(await pending).toBe('');
    expect(thread.workerStarts).toBe(MIRROR_RESTART_POLICY.maxFailures);
    expect(seen.lost).toEqual([]);
  });

  it('that loads but dies at every command is given up on too; each death loses the content once', async () => {
    const thread = threadAt(
      workerSource(`import { parentPort } from 'node:worker_threads';
parentPort.postMessage({ kind: 'ready' });
parentPort.on('message', () => { throw new Error('crashed on a command'); });`),
    );
    const { mirror, seen } = open(40, 5, 100, thread);
    mirror.write(bytes('hello'));
    const off = await offOf(mirror);
    expect(off.reason).toBe('the mirror thread kept failing: crashed on a command (exit code 1)');
    expect(thread.workerStarts).toBe(MIRROR_RESTART_POLICY.maxFailures);
    expect(seen.lost).toHaveLength(MIRROR_RESTART_POLICY.maxFailures);
  });

  it('that crashes once after working comes back with every pane keeping a mirror', async () => {
    const thread = new MirrorThread();
    threads.push(thread);
    const first = open(40, 5, 100, thread);
    const second = open(40, 5, 100, thread);
    first.mirror.write(bytes('one\r\n'));
    second.mirror.write(bytes('two\r\n'));
    expect(await first.mirror.screenText()).toBe('one');
    expect(await second.mirror.screenText()).toBe('two');
    const worker = thread.currentWorker!;
    await worker.terminate();
    first.mirror.write(bytes('one again\r\n'));
    first.mirror.startBlock('b');
    first.mirror.write(bytes('output\r\n'));
    first.mirror.endBlock('b');
    second.mirror.write(bytes('two again\r\n'));
    expect((await first.mirror.readBlock('b'))?.text).toBe('output');
    expect(await first.mirror.screenText()).toBe('one again\noutput');
    expect(await second.mirror.screenText()).toBe('two again');
    expect(first.seen.lost).toHaveLength(1);
    expect(second.seen.lost).toHaveLength(1);
    expect(thread.workerStarts).toBe(2);
    expect(thread.off).toBeUndefined();
    expect(first.seen.off).toEqual([]);
    expect(first.mirror.available).toBe(true);
  });
});
