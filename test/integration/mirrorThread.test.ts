import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { PaneMirror } from '../../src/main/blocks/mirror/paneMirror';
import { mirrorThread } from '../../src/main/blocks/mirror/mirrorThread';

const mirrors: PaneMirror[] = [];
afterEach(() => mirrors.splice(0).forEach((mirror) => mirror.dispose()));

function open(cols = 40, rows = 5, scrollback = 100) {
  const seen = { parsed: 0, lost: [] as string[] };
  const mirror = new PaneMirror(cols, rows, scrollback);
  mirror.onParsed((bytes) => (seen.parsed += bytes));
  mirror.onLost((reason) => seen.lost.push(reason));
  mirrors.push(mirror);
  return { mirror, seen };
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
    expect(await mirror.readBlock('b1')).toEqual({ text: 'first', truncated: false, lineCount: 1 });
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
    expect(nice[0]).toBe(0);
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
  });
});
