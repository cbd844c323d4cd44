import { describe, expect, it } from 'vitest';
import { TerminalMirror } from '../../src/main/blocks/mirror/terminalMirror';

describe('TerminalMirror', () => {
  it('runs afterPendingWrites callbacks in order, after the bytes before them are parsed', async () => {
    const mirror = new TerminalMirror(20, 5, 100);
    const seen: string[] = [];
    mirror.write('first');
    mirror.afterPendingWrites(() => seen.push(mirror.cursorLineText()));
    mirror.write(' second');
    mirror.afterPendingWrites(() => seen.push(mirror.cursorLineText()));
    await mirror.flushed();
    expect(seen).toEqual(['first', 'first second']);
    mirror.dispose();
  });

  it('returns clean text between markers: colors removed, soft wraps joined, wide chars intact', async () => {
    const mirror = new TerminalMirror(10, 5, 1000);
    mirror.write('$ cmd\r\n');
    await mirror.flushed();
    const start = mirror.markCursorLine()!;
    mirror.write('\x1b[31mred\x1b[0m text\r\n');
    mirror.write('0123456789abcdef\r\n');
    mirror.write('日本語テキスト\r\n');
    mirror.write('tail');
    await mirror.flushed();
    const end = mirror.markCursorLine()!;
    expect(mirror.textBetween(start.marker.line, end.marker.line, end.column)).toBe(
      'red text\n0123456789abcdef\n日本語テキスト\ntail',
    );
    mirror.dispose();
  });

  it('serializes the screen so it can be restored into another terminal', async () => {
    const mirror = new TerminalMirror(40, 5, 1000);
    mirror.write('\x1b[1mbold line\x1b[0m\r\nplain line\r\n');
    await mirror.flushed();
    const copy = new TerminalMirror(40, 5, 1000);
    copy.write(mirror.serialize());
    await copy.flushed();
    expect(copy.screenText()).toContain('bold line\nplain line');
    mirror.dispose();
    copy.dispose();
  });

  it('knows when a program switched to the alternate screen', async () => {
    const mirror = new TerminalMirror(20, 5, 100);
    mirror.write('\x1b[?1049h');
    await mirror.flushed();
    expect(mirror.isAlternateScreen).toBe(true);
    expect(mirror.markCursorLine()).toBeUndefined();
    mirror.dispose();
  });
});

describe('TerminalMirror character widths', () => {
  it('measures emoji with Unicode 11 widths, as the renderer does', async () => {
    const mirror = new TerminalMirror(20, 5, 100);
    mirror.write('\u{1F600}x');
    await mirror.flushed();
    // Under Unicode 6 the emoji is one cell wide and the cursor would be at 2.
    expect(mirror.cursorColumn).toBe(3);
    mirror.dispose();
  });
});
