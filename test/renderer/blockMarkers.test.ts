import { Terminal as HeadlessTerminal } from '@xterm/headless';
import type { IBuffer, Terminal } from '@xterm/xterm';
import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/shared/blocks';
import { BlockMarkers } from '../../src/renderer/src/blocks/blockMarkers';
import { locateRestoredBlocks } from '../../src/renderer/src/blocks/restoredBlockLocator';

/** A real xterm parser and buffer without a DOM: the same marker API the renderer uses. */
function terminal(cols = 20, rows = 6, scrollback = 1_000) {
  const headless = new HeadlessTerminal({ cols, rows, scrollback, allowProposedApi: true });
  const write = (data: string) => new Promise<void>((resolve) => headless.write(data, resolve));
  let changes = 0;
  const markers = new BlockMarkers(headless as unknown as Terminal, () => changes++);
  return { headless, write, markers, changes: () => changes };
}

function block(id: string, command: string, outputOffset: number): Block {
  return { id, paneId: 1, command, cwd: '', startedAt: 0, endedAt: 1, exitCode: 0, trusted: true, outputOffset, usedAlternateScreen: false };
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
    expect(markers.hasEnd('b1')).toBe(true);
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

describe('locateRestoredBlocks', () => {
  it('finds each command on its row, newest first, each above the next', async () => {
    const { write, headless } = terminal(40, 10);
    await write('$ echo one\r\none\r\n$ ls\r\nfile\r\n$ echo one\r\none\r\n$ ');
    const found = locateRestoredBlocks(headless.buffer.active as unknown as IBuffer, [
      block('b1', 'echo one', 0),
      block('b2', 'ls', 10),
      block('b3', 'echo one', 20),
      block('b4', '', 30),
      block('b5', 'not on screen', 5),
    ]);
    expect(Object.fromEntries(found)).toEqual({ b3: 4, b2: 2, b1: 0 });
  });

  it('matches commands that were soft-wrapped in the snapshot', async () => {
    const { write, headless } = terminal(12, 10);
    await write('$ echo abcdefghijklmnop\r\nabcdefghijklmnop\r\n$ ');
    const found = locateRestoredBlocks(headless.buffer.active as unknown as IBuffer, [block('b1', 'echo abcdefghijklmnop', 0)]);
    expect(found.get('b1')).toBe(0);
  });
});
