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

  it('starts a new line at a lone carriage return (a progress bar redrawing)', () => {
    expect(plain('10%\r20%\r30%\n')).toBe('10%\n20%\n30%\n');
  });

  it('adds no blank line for a carriage return at the start of a line (fish before a command\'s output)', () => {
    expect(plain('\r/tmp\n')).toBe('/tmp\n');
    expect(plain('a\n', '\r', '\x1b[K', 'b\n')).toBe('a\nb\n');
  });
});
