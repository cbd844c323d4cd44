import { Terminal as HeadlessTerminal } from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import type { Terminal } from '@xterm/xterm';
import { describe, expect, it } from 'vitest';
import type { SnapshotBlock } from '../../src/shared/protocol';
import { BlockMarkers } from '../../src/renderer/src/blocks/blockMarkers';

/** A real xterm parser and buffer without a DOM: the same marker API the renderer uses. */
function terminal(cols = 20, rows = 6, scrollback = 1_000) {
  const headless = new HeadlessTerminal({ cols, rows, scrollback, allowProposedApi: true });
  const write = (data: string) => new Promise<void>((resolve) => headless.write(data, resolve));
  let changes = 0;
  const markers = new BlockMarkers(headless as unknown as Terminal, () => changes++);
  return { headless, write, markers, changes: () => changes };
}

describe('BlockMarkers', () => {
  it('spans the command row and its output, from the C mark to the D mark', async () => {
    const { write, markers, changes } = terminal();
    await write('$ true\r\n$ ls\r\n');
    markers.markStartAtCursor('b1', 'ls');
    expect(markers.lines('b1')).toEqual({ top: 1, commandBottom: 1, bottom: 2 });
    await write('a.txt\r\nb.txt\r\n');
    markers.markEndAtCursor('b1');
    await write('$ ');
    expect(markers.lines('b1')).toEqual({ top: 1, commandBottom: 1, bottom: 3 });
    expect(changes()).toBe(2);
  });

  it('output without a final newline still ends on its own row', async () => {
    const { write, markers } = terminal();
    await write('$ printf x\r\n');
    markers.markStartAtCursor('b1', 'printf x');
    await write('x');
    markers.markEndAtCursor('b1');
    await write('$ ');
    expect(markers.lines('b1')).toEqual({ top: 0, commandBottom: 0, bottom: 1 });
  });

  it('a command soft-wrapped over several rows starts at its first row', async () => {
    const { write, markers } = terminal(10, 6);
    await write('$ echo 123456789012\r\n');
    markers.markStartAtCursor('b1', 'echo 123456789012');
    expect(markers.lines('b1')).toMatchObject({ top: 0, commandBottom: 1 });
  });

  it('a multi-line command covers all its lines', async () => {
    const { write, markers } = terminal();
    await write('$ x\r\n$ for i in 1\r\n> do :\r\n> done\r\n');
    markers.markStartAtCursor('b1', 'for i in 1\ndo :\ndone');
    expect(markers.lines('b1')).toMatchObject({ top: 1, commandBottom: 3 });
  });

  it('positions stay on the same rows as output scrolls, and vanish when trimmed from the scrollback', async () => {
    const { write, markers, headless } = terminal(20, 4, 10);
    await write('$ ls\r\n');
    markers.markStartAtCursor('b1', 'ls');
    await write('out\r\n');
    markers.markEndAtCursor('b1');
    for (let i = 0; i < 8; i++) await write(`line ${i}\r\n`);
    const lines = markers.lines('b1');
    expect(lines).toEqual({ top: 0, commandBottom: 0, bottom: 1 });
    expect(headless.buffer.active.getLine(lines!.top)?.translateToString(true)).toBe('$ ls');
    for (let i = 0; i < 20; i++) await write(`more ${i}\r\n`);
    expect(markers.lines('b1')).toBeUndefined();
    expect(markers.has('b1')).toBe(false);
  });

  it('a running block reaches down to the cursor; forgetting removes it', async () => {
    const { write, markers } = terminal();
    await write('$ sleep 9\r\n');
    markers.markStartAtCursor('b1', 'sleep 9');
    await write('tick\r\ntick\r\n');
    expect(markers.lines('b1')).toEqual({ top: 0, commandBottom: 0, bottom: 3 });
    markers.forget('b1');
    expect(markers.lines('b1')).toBeUndefined();
    // Marking the same block twice keeps the first position.
    markers.markStartAtCursor('b2', 'x');
    await write('\r\n\r\n');
    markers.markStartAtCursor('b2', 'x');
    expect(markers.lines('b2')?.top).toBe(2);
  });
});

/** The text of a block's rows, top to bottom. */
function rowsOf(headless: HeadlessTerminal, markers: BlockMarkers, blockId: string): string[] | undefined {
  const lines = markers.lines(blockId);
  if (!lines) return undefined;
  const texts: string[] = [];
  for (let row = lines.top; row <= lines.bottom; row++) texts.push(headless.buffer.active.getLine(row)!.translateToString(true));
  return texts;
}

describe('BlockMarkers when the width changes', () => {
  it('a wrapped command keeps its rows after the pane is narrowed and widened (the command is re-wrapped)', async () => {
    const { headless, write, markers } = terminal(20, 12);
    const command = 'echo abcdefghijklmnopqrstuvwxyz';
    await write(`$ true\r\n$ ${command}\r\n`);
    markers.markStartAtCursor('b1', command);
    await write('abcdefghijklmnopqrstuvwxyz\r\n');
    markers.markEndAtCursor('b1');
    await write('$ ');
    const joined = () => {
      const lines = markers.lines('b1')!;
      const rows = rowsOf(headless, markers, 'b1')!;
      return { command: rows.slice(0, lines.commandBottom - lines.top + 1).join(''), output: rows.slice(lines.commandBottom - lines.top + 1).join('') };
    };
    expect(joined()).toEqual({ command: `$ ${command}`, output: 'abcdefghijklmnopqrstuvwxyz' });
    expect(markers.lines('b1')).toMatchObject({ top: 1, commandBottom: 2 });

    headless.resize(10, 12);
    expect(markers.lines('b1')).toMatchObject({ top: 1, commandBottom: 4 });
    expect(joined()).toEqual({ command: `$ ${command}`, output: 'abcdefghijklmnopqrstuvwxyz' });

    headless.resize(40, 12);
    expect(markers.lines('b1')).toMatchObject({ top: 1, commandBottom: 1 });
    expect(joined()).toEqual({ command: `$ ${command}`, output: 'abcdefghijklmnopqrstuvwxyz' });
  });
});

describe('BlockMarkers when a command clears the screen', () => {
  const seq = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${from + i}\r\n`).join('');

  it('`clear` (erase screen and scrollback) then 30 rows: the block covers the 30 rows, earlier blocks on the screen lose their place', async () => {
    const { headless, write, markers } = terminal(20, 10);
    markers.watchScreenClears();
    await write('$ echo before\r\n');
    markers.markStartAtCursor('before', 'echo before');
    await write('before\r\n');
    markers.markEndAtCursor('before');
    await write('$ clear; seq 30\r\n');
    markers.markStartAtCursor('b1', 'clear; seq 30');
    await write('\x1b[H\x1b[2J\x1b[3J' + seq(1, 30));
    markers.markEndAtCursor('b1');
    await write('$ ');
    expect(rowsOf(headless, markers, 'b1')).toEqual(seq(1, 30).split('\r\n').slice(0, 30));
    expect(markers.lines('b1')).toMatchObject({ commandBottom: markers.lines('b1')!.top - 1 });
    expect(markers.lines('before')).toBeUndefined();
  });

  it('a clear that keeps the scrollback (ED 2 only), typed at the bottom of a full screen: the block covers what it printed after it', async () => {
    const { headless, write, markers } = terminal(20, 10);
    markers.watchScreenClears();
    await write('$ seq 12\r\n');
    markers.markStartAtCursor('long', 'seq 12');
    await write(seq(1, 12));
    markers.markEndAtCursor('long');
    await write('$ clear -x; seq 30 59\r\n');
    markers.markStartAtCursor('b1', 'clear -x; seq 30 59');
    await write('\x1b[H\x1b[2J' + seq(30, 59));
    markers.markEndAtCursor('b1');
    await write('$ ');
    expect(rowsOf(headless, markers, 'b1')).toEqual(seq(30, 59).split('\r\n').slice(0, 30));
    // The block above began in the scrollback: it keeps those rows and ends where the screen was erased.
    const long = rowsOf(headless, markers, 'long')!;
    expect(long[0]).toBe('$ seq 12');
    expect(long.at(-1)).not.toBe('');
    expect(markers.lines('long')!.bottom).toBeLessThan(markers.lines('b1')!.top);
  });

  it('a command whose line scrolled away before it cleared keeps its command line as its top', async () => {
    const { headless, write, markers } = terminal(20, 5);
    markers.watchScreenClears();
    await write('$ x\r\n');
    markers.markStartAtCursor('b1', 'x');
    await write(seq(1, 8) + '\x1b[H\x1b[2J' + 'after\r\n');
    markers.markEndAtCursor('b1');
    const rows = rowsOf(headless, markers, 'b1')!;
    expect(rows[0]).toBe('$ x');
    expect(rows.at(-1)).toBe('after');
    expect(markers.lines('b1')).toMatchObject({ top: 0, commandBottom: 0 });
  });

  it('a running block whose start left the scrollback still covers the rows down to the cursor', async () => {
    const { write, markers } = terminal(20, 4, 10);
    await write('$ seq 100\r\n');
    markers.markStartAtCursor('b1', 'seq 100');
    await write(seq(1, 40));
    expect(markers.lines('b1')).toEqual({ top: 0, commandBottom: -1, bottom: 13 });
    markers.markEndAtCursor('b1');
    expect(markers.lines('b1')).toEqual({ top: 0, commandBottom: -1, bottom: 12 });
  });
});

/**
 * The engine's side of a snapshot, as the mirror has it: a headless terminal that records
 * where the cursor was at each C and D mark, serialized, with the marks' rows counted from
 * the row the snapshot leaves the cursor on.
 */
function mirror(cols: number, rows: number) {
  const { headless, write } = terminal(cols, rows, 10_000);
  const serializer = new SerializeAddon();
  headless.loadAddon(serializer as unknown as Parameters<typeof headless.loadAddon>[0]);
  const edges = new Map<string, { start: { line: number; column: number }; end?: { line: number; column: number } }>();
  const cursor = () => ({ line: headless.buffer.active.baseY + headless.buffer.active.cursorY, column: headless.buffer.active.cursorX });
  return {
    /** A prompt with the command echoed, then its output; `running` leaves the block without an end. */
    async run(blockId: string, command: string, output: string, { running = false } = {}) {
      await write(`$ ${command}\r\n`);
      edges.set(blockId, { start: cursor() });
      await write(output);
      if (!running) edges.get(blockId)!.end = cursor();
    },
    write,
    snapshot(): { text: string; blocks: SnapshotBlock[] } {
      const now = cursor().line;
      const blocks = [...edges].map(([blockId, { start, end }]) => ({
        blockId,
        start: { row: start.line - now, column: start.column },
        ...(end ? { end: { row: end.line - now, column: end.column } } : {}),
      }));
      return { text: serializer.serialize({ excludeAltBuffer: true, excludeModes: true }), blocks };
    },
  };
}

describe('BlockMarkers in a snapshot', () => {
  it('markStartAt / markEndAt at rows from the cursor mean what the cursor methods meant then', async () => {
    const live = terminal(30, 8);
    const listed = terminal(30, 8);
    await live.write('$ true\r\n$ ls\r\n');
    await listed.write('$ true\r\n$ ls\r\n');
    live.markers.markStartAtCursor('b1', 'ls');
    await live.write('a.txt\r\nb');
    await listed.write('a.txt\r\nb');
    live.markers.markEndAtCursor('b1');
    await live.write('\r\n$ ');
    await listed.write('\r\n$ ');
    // From the final cursor (row 3, column 2): the C mark was 2 rows up at column 0, D 1 row up at column 1.
    listed.markers.markStartAt('b1', -2, 0, 'ls');
    listed.markers.markEndAt('b1', -1, 1);
    expect(listed.markers.lines('b1')).toEqual(live.markers.lines('b1'));
    expect(listed.markers.lines('b1')).toEqual({ top: 1, commandBottom: 1, bottom: 3 });
  });

  it('places each block of a serialized snapshot on its rows, a running one down to the cursor', async () => {
    const engine = mirror(40, 6);
    await engine.run('b1', 'echo one', 'one\r\n');
    await engine.run('b2', 'seq 3', '1\r\n2\r\n3\r\n');
    await engine.run('b3', "printf 'no newline'", 'no newline');
    await engine.write('\r\n');
    await engine.run('b4', 'sleep 9', 'tick\r\n', { running: true });
    const { text, blocks } = engine.snapshot();

    const page = terminal(40, 6, 1_000);
    await page.write(text);
    for (const { blockId, start, end } of blocks) {
      page.markers.markStartAt(blockId, start.row, start.column, 'x');
      if (end) page.markers.markEndAt(blockId, end.row, end.column);
    }
    const rowsOf = (blockId: string) => {
      const lines = page.markers.lines(blockId)!;
      const texts: string[] = [];
      for (let row = lines.top; row <= lines.bottom; row++) texts.push(page.headless.buffer.active.getLine(row)!.translateToString(true));
      return texts;
    };
    expect(rowsOf('b1')).toEqual(['$ echo one', 'one']);
    expect(rowsOf('b2')).toEqual(['$ seq 3', '1', '2', '3']);
    expect(rowsOf('b3')).toEqual(["$ printf 'no newline'", 'no newline']);
    expect(rowsOf('b4')).toEqual(['$ sleep 9', 'tick', '']);
  });

  it('a block whose start left the page\'s smaller scrollback is not placed; the rest keep their rows', async () => {
    const engine = mirror(40, 4);
    await engine.run('old', 'seq 20', Array.from({ length: 20 }, (_, i) => `${i + 1}\r\n`).join(''));
    await engine.run('cut', 'seq 30 32', '30\r\n31\r\n32\r\n');
    await engine.run('kept', 'echo kept', 'kept\r\n');
    await engine.write('$ ');
    const { text, blocks } = engine.snapshot();

    // 4 rows + 1 of scrollback: only the last 5 rows of the snapshot survive, from '31' on.
    const page = terminal(40, 4, 1);
    await page.write(text);
    expect(page.headless.buffer.active.getLine(0)!.translateToString(true)).toBe('31');
    for (const { blockId, start, end } of blocks) {
      page.markers.markStartAt(blockId, start.row, start.column, blockId === 'kept' ? 'echo kept' : 'seq');
      if (end) page.markers.markEndAt(blockId, end.row, end.column);
    }
    expect(page.markers.has('old')).toBe(false);
    expect(page.markers.has('cut')).toBe(false);
    // Its end would be on screen, but a block is placed from its start only.
    expect(page.markers.lines('cut')).toBeUndefined();
    const kept = page.markers.lines('kept')!;
    expect(page.headless.buffer.active.getLine(kept.top)!.translateToString(true)).toBe('$ echo kept');
    expect(page.headless.buffer.active.getLine(kept.bottom)!.translateToString(true)).toBe('kept');
  });
});
