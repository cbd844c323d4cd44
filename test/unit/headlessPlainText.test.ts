import { describe, expect, it } from 'vitest';
import { PlainText } from '../../src/main/headless/plainText';

function plain(...chunks: string[]): string {
  const text = new PlainText();
  const encoder = new TextEncoder();
  return chunks.map((chunk) => text.push(encoder.encode(chunk))).join('') + text.end();
}

describe('PlainText (a step\'s output for the event stream)', () => {
  it('turns CR LF into one line end', () => {
    expect(plain('a\r\nb\r\n')).toBe('a\nb\n');
  });

  it('reads a CRLF line a program printed through the pty (CR CR LF) as one line end, in any chunking', () => {
    // `curl -I`, a CRLF file under `cat`: the pty's ONLCR makes each \r\n a \r\r\n.
    expect(plain('HTTP/1.1 200 OK\r\r\nServer: x\r\r\n')).toBe('HTTP/1.1 200 OK\nServer: x\n');
    expect(plain('a\r', '\r', '\nb\r\r\n')).toBe('a\nb\n');
  });

  it('overwrites the line after a lone carriage return, as a screen does: a progress bar leaves its last state', () => {
    expect(plain('10%\r20%\r30%\n')).toBe('30%\n');
    expect(plain('downloading… 42%', '\r', 'done            \n')).toBe('done\n');
    expect(plain('abc\b\bX\n')).toBe('aXc\n');
  });

  it("leaves nothing of zsh's PROMPT_SP mark after output that ended in a line break, and keeps a missing one's `%`", () => {
    const mark = `%${' '.repeat(79)}\r \r`;
    expect(plain('hello\n', mark)).toBe('hello\n');
    // Output without a final line break: the mark wraps past it, as on an 80-column screen.
    const text = new PlainText(80);
    const encoder = new TextEncoder();
    expect(text.push(encoder.encode('abc')) + text.push(encoder.encode(mark)) + text.end()).toBe('abc%\n');
  });

  it('wraps a line longer than the pane, keeps tabs, and trims trailing blanks', () => {
    const text = new PlainText(10);
    expect(text.push(new TextEncoder().encode('0123456789ABC\na\tb \n')) + text.end()).toBe('0123456789\nABC\na\tb\n');
  });

  it('adds no blank line for a carriage return at the start of a line (fish before a command\'s output)', () => {
    expect(plain('\r/tmp\n')).toBe('/tmp\n');
    expect(plain('a\n', '\r', '\x1b[K', 'b\n')).toBe('a\nb\n');
  });
});
