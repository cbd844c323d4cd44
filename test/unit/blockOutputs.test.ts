import { describe, expect, it } from 'vitest';
import { BlockOutputs } from '../../src/main/blocks/mirror/blockOutputs';
import { TerminalMirror } from '../../src/main/blocks/mirror/terminalMirror';

describe('BlockOutputs', () => {
  it('reads each block between its markers, and a running one up to the cursor', async () => {
    const mirror = new TerminalMirror(40, 5, 100);
    const outputs = new BlockOutputs(mirror);
    mirror.write('$ one\r\n');
    outputs.startAtCursor('b1');
    mirror.write('first\r\n');
    outputs.endAtCursor('b1');
    mirror.write('$ two\r\n');
    outputs.startAtCursor('b2');
    mirror.write('second, still running');
    expect(await outputs.read('b1')).toEqual({ text: 'first', truncated: false, lineCount: 1 });
    expect(await outputs.read('b2')).toMatchObject({ text: 'second, still running', truncated: false });
    expect(await outputs.read('nope')).toBeUndefined();
    mirror.dispose();
  });

  it('keeps the tail of a block whose start scrolled out, and says it is truncated', async () => {
    const mirror = new TerminalMirror(20, 5, 50);
    const outputs = new BlockOutputs(mirror);
    outputs.startAtCursor('long');
    for (let i = 1; i <= 200; i++) mirror.write(`line ${i}\r\n`);
    outputs.endAtCursor('long');
    outputs.startAtCursor('next');
    const read = await outputs.read('long');
    expect(read?.truncated).toBe(true);
    expect(read?.text.endsWith('line 200')).toBe(true);
    expect(read?.text.startsWith('line 1\n')).toBe(false);
    mirror.dispose();
  });

  it('reports a block whose whole output left the scrollback as empty and truncated', async () => {
    const mirror = new TerminalMirror(20, 5, 10);
    const outputs = new BlockOutputs(mirror);
    outputs.startAtCursor('old');
    mirror.write('old output\r\n');
    outputs.endAtCursor('old');
    for (let i = 0; i < 100; i++) mirror.write(`filler ${i}\r\n`);
    expect(await outputs.read('old')).toEqual({ text: '', truncated: true, lineCount: 0 });
    mirror.dispose();
  });

  it('a command that clears the screen: its output is what it printed after the clear, its place in a snapshot says so', async () => {
    const seq = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${from + i}\r\n`).join('');
    for (const clear of ['\x1b[H\x1b[2J\x1b[3J', '\x1b[H\x1b[2J']) {
      const mirror = new TerminalMirror(20, 10, 100);
      const outputs = new BlockOutputs(mirror);
      mirror.write('$ seq 12\r\n');
      outputs.startAtCursor('above');
      mirror.write(seq(1, 12));
      outputs.endAtCursor('above');
      mirror.write('$ clear; seq 101 130\r\n');
      outputs.startAtCursor('cleared');
      mirror.write(clear + seq(101, 130));
      outputs.endAtCursor('cleared');
      mirror.write('$ ');
      const read = await outputs.read('cleared');
      expect(read).toMatchObject({ truncated: false, lineCount: 30 });
      expect(read?.text).toBe(seq(101, 130).trimEnd().replace(/\r\n/g, '\n'));
      const listed = outputs.positions(mirror.serializedRows()).find((block) => block.blockId === 'cleared');
      expect(listed).toMatchObject({ cleared: true, start: { row: -30, column: 0 }, end: { row: 0, column: 0 } });
      if (clear.endsWith('[2J')) {
        // The scrollback was kept: the block above keeps what is left of it, up to the cleared screen.
        const above = await outputs.read('above');
        expect(above?.text.startsWith('1\n2\n')).toBe(true);
        expect(above?.text).not.toContain('101');
      }
      mirror.dispose();
    }
  });
});
