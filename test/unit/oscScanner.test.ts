import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PAYLOAD, OscScanner, type ScannedOsc } from '../../src/main/osc/oscScanner';
import { interpretOsc } from '../../src/main/osc/marks';

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text);

function scanAll(chunks: Uint8Array[]): { id: number; payload: string; absoluteEnd: number }[] {
  const scanner = new OscScanner();
  const found: { id: number; payload: string; absoluteEnd: number }[] = [];
  let base = 0;
  for (const chunk of chunks) {
    for (const osc of scanner.push(chunk)) found.push({ id: osc.id, payload: osc.payload, absoluteEnd: base + osc.end });
    base += chunk.length;
  }
  return found;
}

function splitAt(data: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (data.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let last = 0;
  for (const point of points) {
    chunks.push(data.subarray(last, point));
    last = point;
  }
  chunks.push(data.subarray(last));
  return chunks;
}

const stream = bytes(
  'hello\x1b[31mred\x1b[0m\x1b]133;A;tandem=n1\x07$ \x1b]133;B;tandem=n1\x1b\\ls\r\n' +
    '\x1b]133;C;tandem=n1;cmdline_url=ls%20-la\x07file\r\n\x1b]0;title\x07\x1b]133;D;0;tandem=n1\x07' +
    '\x1b]7;file://host/tmp/a%20b\x07\x1b]1337;CurrentDir=/home/me\x07日本',
);

describe('OscScanner', () => {
  it('finds the sequences we track, with BEL and ST terminators, and skips the others', () => {
    const found = scanAll([stream]);
    expect(found.map((osc) => `${osc.id};${osc.payload}`)).toEqual([
      '133;A;tandem=n1',
      '133;B;tandem=n1',
      '133;C;tandem=n1;cmdline_url=ls%20-la',
      '133;D;0;tandem=n1',
      '7;file://host/tmp/a%20b',
      '1337;CurrentDir=/home/me',
    ]);
  });

  it('reports each end offset just past the terminator', () => {
    const found = scanAll([stream]);
    const text = new TextDecoder().decode(stream);
    const firstEnd = text.indexOf('\x07', text.indexOf(']133;A')) + 1;
    expect(found[0]!.absoluteEnd).toBe(new TextEncoder().encode(text.slice(0, firstEnd)).length);
  });

  it('finds the same marks at the same offsets however the stream is chunked', () => {
    const expected = scanAll([stream]);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 20 }), (cuts) => {
        expect(scanAll(splitAt(stream, cuts))).toEqual(expected);
      }),
    );
  });

  it('finds a mark after doubled introducers (ESC ESC ], C2 C2 9D) and among ESCs and C2s that begin none, however chunked', () => {
    const noisy = bytes('\x1b\x1b]133;A\x07 caf\u00e9 \x1b[1m\u00b0\x1b\xc2\x9d133;B\x07'.replace('\xc2\x9d', '\u009d') + '\u00b1\u009d7;file://h/x\u009c\x1b');
    const expected = ['133;A', '133;B', '7;file://h/x'];
    expect(scanAll([noisy]).map((osc) => `${osc.id};${osc.payload}`)).toEqual(expected);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 20 }), (cuts) => {
        expect(scanAll(splitAt(noisy, cuts)).map((osc) => `${osc.id};${osc.payload}`)).toEqual(expected);
      }),
    );
  });

  it('never hangs or throws on random bytes, and chunking never changes the result', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.array(fc.nat(), { maxLength: 8 }), (data, cuts) => {
        const whole = scanAll([data]);
        expect(scanAll(splitAt(data, cuts))).toEqual(whole);
        for (const osc of whole) expect(osc.absoluteEnd).toBeLessThanOrEqual(data.length);
      }),
      { numRuns: 500 },
    );
  });

  it('finds marks embedded in random noise that contains no ESC', () => {
    const noise = fc.uint8Array({ maxLength: 50 }).map((data) => data.map((byte) => (byte === 0x1b ? 0x20 : byte)));
    fc.assert(
      fc.property(noise, noise, fc.array(fc.nat(), { maxLength: 6 }), (before, after, cuts) => {
        const mark = bytes('\x1b]133;D;42;tandem=abc\x1b\\');
        // A BEL, CAN or SUB in the noise before could only matter inside an OSC; there is none open.
        const data = new Uint8Array([...before, ...mark, ...after]);
        const found = scanAll(splitAt(data, cuts));
        expect(found.map((osc) => osc.payload)).toEqual(['D;42;tandem=abc']);
        expect(found[0]!.absoluteEnd).toBe(before.length + mark.length);
      }),
    );
  });

  it('aborts an OSC on CAN or SUB, and ends it on an ESC that is not ST, as xterm.js does', () => {
    expect(scanAll([bytes('\x1b]133;A\x18\x1b]133;B\x07')]).map((o) => o.payload)).toEqual(['B']);
    expect(scanAll([bytes('\x1b]133;A\x1a\x1b]133;C\x07')]).map((o) => o.payload)).toEqual(['C']);
    expect(scanAll([bytes('\x1b]133;A\x1b[31m\x1b]133;D;1\x07')]).map((o) => o.payload)).toEqual(['A', 'D;1']);
  });

  it('understands the C1 forms of OSC and ST, and keeps other C2 characters in the payload', () => {
    const found = scanAll([bytes('\u009d133;A\u009c°C \x1b]7;file:///tmp/°\x07')]);
    expect(found.map((o) => o.payload)).toEqual(['A', 'file:///tmp/°']);
  });

  it('drops a payload longer than the cap but keeps scanning after it', () => {
    const long = '\x1b]133;C;cmdline_url=' + 'x'.repeat(MAX_PAYLOAD + 10) + '\x07\x1b]133;D;0\x07';
    expect(scanAll([bytes(long)]).map((o) => o.payload)).toEqual(['D;0']);
  });

  it('survives an OSC that never terminates', () => {
    const scanner = new OscScanner();
    let found: ScannedOsc[] = scanner.push(bytes('\x1b]133;A'));
    const chunk = bytes('y'.repeat(10_000));
    for (let i = 0; i < 100; i++) found = found.concat(scanner.push(chunk));
    expect(found).toEqual([]);
    // The terminator, when it comes, ends the oversized sequence without reporting it.
    expect(scanner.push(bytes('\x07\x1b]133;B\x07')).map((o) => o.payload)).toEqual(['B']);
  });

  it('ignores other OSC numbers and malformed ids', () => {
    expect(scanAll([bytes('\x1b]8;;http://x\x07\x1b]1330;A\x07\x1b]13x3;A\x07\x1b]7;file:///\x07')]).map((o) => o.id)).toEqual([7]);
  });

  it('decodes UTF-8 payloads', () => {
    const [osc] = scanAll([bytes('\x1b]7;kitty-shell-cwd://h/tmp/日本\x07')]);
    expect(interpretOsc({ id: osc!.id, payload: osc!.payload, end: 0 })).toEqual({ kind: 'cwd', path: '/tmp/日本', host: 'h' });
  });
});
