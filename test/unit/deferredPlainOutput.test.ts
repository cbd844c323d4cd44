import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { BlockOutputs } from '../../src/main/blocks/mirror/blockOutputs';
import { DeferredPlainOutput, type DeferralTerminal } from '../../src/main/blocks/mirror/deferredPlainOutput';
import { MirrorHost } from '../../src/main/blocks/mirror/mirrorHost';
import type { MirrorCommand, MirrorEvent } from '../../src/main/blocks/mirror/mirrorProtocol';
import { PlainTextScanner } from '../../src/main/blocks/mirror/plainTextScanner';
import { TerminalMirror } from '../../src/main/blocks/mirror/terminalMirror';
import { PrintedTally } from '../../src/main/blocks/printedTally';
import { LINE_END_NOTE_BYTES } from '../../src/main/pty/flowPolicy';

const encode = (text: string) => new TextEncoder().encode(text);
const bytesOf = (parts: Uint8Array[]) => parts.reduce((sum, part) => sum + part.byteLength, 0);

function plainAfter(...chunks: (string | Uint8Array)[]): boolean {
  const scanner = new PlainTextScanner();
  scanner.beginRun(80);
  for (const chunk of chunks) scanner.scan(typeof chunk === 'string' ? encode(chunk) : chunk);
  return scanner.plain;
}

describe('PlainTextScanner', () => {
  it('calls text, CR LF and SGR plain, in any chunking', () => {
    expect(plainAfter('\x1b[32mINFO\x1b[0m café 数据 🚀\r\n', 'more\r\n')).toBe(true);
    expect(plainAfter('\x1b[38;5;20', '0m[auth]\x1b[', 'm\r', '\nnext')).toBe(true);
    expect(plainAfter(encode('é').subarray(0, 1), encode('é').subarray(1))).toBe(true);
  });

  it('calls anything that moves the cursor otherwise, or changes how text is read, not plain', () => {
    for (const sample of ['a\tb', 'a\bb', 'progress\r50%', 'bare\nline', '\x1b[2A', '\x1b[K', '\x1b]0;title\x07', '\x1b[?1049h', '\x1b[2;3r', '\x1b(0', '\x0e', '\x1b[4h', '\x1b[?7l', 'a\x7fb']) {
      expect(plainAfter(sample), JSON.stringify(sample)).toBe(false);
    }
    expect(plainAfter(Uint8Array.of(0xc2, 0x9b, 0x41))).toBe(false); // C1 CSI in UTF-8
    expect(plainAfter(Uint8Array.of(0x61, 0xff, 0x62))).toBe(false); // not UTF-8
    expect(plainAfter(Uint8Array.of(0xc0, 0x80))).toBe(false); // overlong
  });

  it('knows when the parser is between sequences, across chunks', () => {
    const scanner = new PlainTextScanner();
    scanner.scan(encode('\x1b]0;a title that goes on'));
    expect(scanner.atBoundary).toBe(false);
    scanner.scan(encode(' and on\x1b\\'));
    expect(scanner.atBoundary).toBe(true);
    scanner.scan(encode('\x1bP+q'));
    scanner.scan(encode('\x07still in DCS'));
    expect(scanner.atBoundary).toBe(false);
    scanner.scan(encode('\x1b\\text'));
    expect(scanner.atBoundary).toBe(true);
    scanner.scan(Uint8Array.of(0xe6));
    expect(scanner.atBoundary).toBe(false);
  });

  it('counts rows as a lower bound: ASCII only, wrapped lines by the width', () => {
    const scanner = new PlainTextScanner();
    scanner.beginRun(10);
    scanner.scan(encode('short\r\n' + 'x'.repeat(25) + '\r\n数据数据数据数据\r\n\r\n'));
    const ends = scanner.lineEnds;
    expect(Array.from({ length: ends.end - ends.head }, (_, i) => ends.rows(ends.head + i))).toEqual([1, 4, 5, 6]);
  });
});

const plainTerminal = (cols: number, keptRows: number): DeferralTerminal => ({ cols, rows: 24, keptRows, idle: true, plainScreen: true });

describe('DeferredPlainOutput', () => {
  it('holds a plain flood and drops what would scroll out of the scrollback', () => {
    const deferred = new DeferredPlainOutput();
    let pushed = 0;
    for (let i = 0; i < 10_000; i++) {
      const line = encode(`\x1b[32mline ${i}\x1b[0m ${'x'.repeat(i % 150)}\r\n`);
      pushed += line.byteLength;
      expect(deferred.push(line, plainTerminal(80, 1_024))).toEqual([]);
    }
    const parsed = deferred.release();
    expect(bytesOf(parsed)).toBeLessThan(pushed / 5);
    // What is kept starts with a reset, then whole lines up to the end.
    expect(new TextDecoder().decode(parsed[0])).toBe('\x1b[0m');
    expect(new TextDecoder().decode(parsed.at(-1))).toContain('line 9999');
  });

  it('never cuts where the attributes are not known', () => {
    const deferred = new DeferredPlainOutput();
    deferred.push(encode('\x1b[41m'), plainTerminal(80, 10));
    for (let i = 0; i < 100; i++) deferred.push(encode(`red background ${i}\r\n`), plainTerminal(80, 10));
    const parsed = deferred.release();
    expect(new TextDecoder().decode(parsed[0])).toBe('\x1b[41m');
  });

  it('cuts text without any SGR where it likes, keeping the attributes the terminal has', () => {
    const deferred = new DeferredPlainOutput();
    for (let i = 0; i < 100_000; i++) deferred.push(encode('y\r\n'), plainTerminal(80, 1_000));
    const parsed = deferred.release();
    // The lines that must stay (the buffer, a screen more, one) and at most one note's spacing.
    expect(bytesOf(parsed)).toBeLessThan((1_000 + 24 + 2) * 3 + LINE_END_NOTE_BYTES);
    expect(new TextDecoder().decode(parsed[0]).startsWith('y\r\n')).toBe(true);
  });

  it('parses at once when the screen is not plain, or xterm is still busy', () => {
    const deferred = new DeferredPlainOutput();
    const chunk = encode('text\r\n');
    expect(deferred.push(chunk, { ...plainTerminal(80, 100), plainScreen: false })).toEqual([chunk]);
    expect(deferred.push(chunk, { ...plainTerminal(80, 100), idle: false })).toEqual([chunk]);
    expect(deferred.push(chunk, plainTerminal(80, 100))).toEqual([]);
    const other = encode('\x1b[H');
    expect(deferred.push(other, plainTerminal(80, 100))).toEqual([chunk, other]);
  });
});

// ---- the property: a mirror that holds and drops ends up exactly like one that parses everything

const word = fc.constantFrom('ok', 'request', 'handled', 'café', 'Größe', '数据', 'キャッシュ', '🚀', '✓', '─┼─', 'a', '');
const sgr = fc.constantFrom('\x1b[0m', '\x1b[m', '\x1b[1;31m', '\x1b[32m', '\x1b[38;5;200m', '\x1b[48;2;10;20;30m', '\x1b[44m', '\x1b[4:3m', '\x1b[7m', '\x1b[0;0m');
const plainLine = fc
  .array(fc.oneof({ weight: 4, arbitrary: word }, { weight: 2, arbitrary: sgr }, { weight: 1, arbitrary: fc.string({ minLength: 0, maxLength: 30 }).map((text) => text.replace(/[^ -~]/g, 'x')) }), { maxLength: 12 })
  .map((parts) => `${parts.join(' ')}\r\n`);
const oddity = fc.constantFrom(
  '\t', '\b', 'over\rwrite', 'bare\n', '\x1b[2A', '\x1b[K', '\x1b[H', '\x1b]0;title\x07', '\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\',
  '\x1b[?1049hfull screen\x1b[?1049l', '\x1b[2;3r', '\x1b[r', '\x1b[?7l', '\x1b[?7h', '\x1b[4h', '\x1b[4l', '\x1b[?6h', '\x1b[?6l',
  '\x1b(0lqk\x1b(B', '\x1bP+q544e\x1b\\', '\xff', '\x1b[31', 'm', '\x1b', '\x0e', '\x0f', '\x1bc',
);
const step = fc.oneof(
  { weight: 12, arbitrary: plainLine.map((text) => ({ kind: 'text' as const, text })) },
  { weight: 2, arbitrary: fc.array(plainLine, { minLength: 20, maxLength: 80 }).map((lines) => ({ kind: 'text' as const, text: lines.join('') })) },
  { weight: 2, arbitrary: oddity.map((text) => ({ kind: 'text' as const, text })) },
  { weight: 1, arbitrary: fc.tuple(sgr, fc.integer({ min: 1, max: 30 })).map(([colour, count]) => ({ kind: 'text' as const, text: colour + '\r\n'.repeat(count) })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'blockStart' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'blockEnd' as const }) },
);

/** Latin-1 oddities (\xff) stay single bytes; the rest is UTF-8. */
function toBytes(text: string): Uint8Array {
  const parts = text.split('\xff').map(encode);
  const out: number[] = [];
  parts.forEach((part, index) => {
    if (index > 0) out.push(0xff);
    out.push(...part);
  });
  return Uint8Array.from(out);
}

async function ask(host: MirrorHost, events: MirrorEvent[], command: MirrorCommand & { request: number }): Promise<unknown> {
  host.handle(command);
  for (;;) {
    const answer = events.find((event) => event.kind === 'answer' && event.request === command.request);
    if (answer && answer.kind === 'answer') return answer.value;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

type Step = { kind: 'text'; text: string } | { kind: 'blockStart' } | { kind: 'blockEnd' };

/** Feeds the same output and marks to a MirrorHost and to a plain TerminalMirror; both must end up the same. */
async function expectSameAsParsingEverything(size: { cols: number; rows: number; scrollback: number }, steps: Step[], chunkSizes: number[]) {
  const { cols, rows, scrollback } = size;
  const events: MirrorEvent[] = [];
  const host = new MirrorHost((event) => events.push(event));
  host.handle({ op: 'open', mirror: 1, cols, rows, scrollback });
  const reference = new TerminalMirror(cols, rows, scrollback);
  const referenceOutputs = new BlockOutputs(reference);
  // The totals the mirror thread counts for each block: every byte of it, held or parsed.
  const referenceTotals = new PrintedTally();
  let running: string | undefined;
  let blocks = 0;
  let chunkIndex = 0;
  for (const item of steps) {
    if (item.kind === 'blockStart') {
      blocks++;
      host.handle({ op: 'blockStart', mirror: 1, blockId: `b${blocks}` });
      referenceOutputs.startAtCursor(`b${blocks}`);
      running = `b${blocks}`;
    } else if (item.kind === 'blockEnd' && blocks > 0) {
      host.handle({ op: 'blockEnd', mirror: 1, blockId: `b${blocks}` });
      referenceOutputs.endAtCursor(`b${blocks}`);
      if (running === `b${blocks}`) running = undefined;
    } else if (item.kind === 'text') {
      const bytes = toBytes(item.text);
      for (let offset = 0; offset < bytes.length; ) {
        const chunkSize = chunkSizes[chunkIndex++ % chunkSizes.length]!;
        const chunk = bytes.slice(offset, offset + chunkSize);
        offset += chunkSize;
        host.handle({ op: 'write', mirror: 1, data: chunk });
        reference.write(chunk);
        if (running) referenceTotals.add(running, chunk);
      }
    }
  }
  let request = 1;
  const full = Number.MAX_SAFE_INTEGER;
  const held = (await ask(host, events, { op: 'serialize', mirror: 1, request: request++, scrollback: full })) as string;
  await reference.flushed();
  expect(held).toBe(reference.serialize(full));
  for (let block = 1; block <= blocks; block++) {
    const answer = await ask(host, events, { op: 'readBlock', mirror: 1, request: request++, blockId: `b${block}` });
    const expected = await referenceOutputs.read(`b${block}`);
    const printed = referenceTotals.of(`b${block}`);
    expect(answer).toEqual(expected && printed ? { ...expected, printed } : expected);
  }
  host.handle({ op: 'close', mirror: 1 });
  reference.dispose();
}

describe('a mirror that holds plain floods', () => {
  it('ends up exactly like a terminal that parsed every byte, screen, scrollback and block text alike', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ cols: fc.integer({ min: 4, max: 24 }), rows: fc.integer({ min: 2, max: 6 }), scrollback: fc.integer({ min: 0, max: 40 }) }),
        fc.array(step, { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 }),
        expectSameAsParsingEverything,
      ),
      { numRuns: 300 },
    );
  });

  it('cuts late enough that rows the cursor moves down onto before scrolling are gone too', async () => {
    // Found by the property: a fresh screen's rows are old rows, not scrolled-in ones with the background colour.
    const text = '\r\n'.repeat(12) + '\x1b[48;2;10;20;30m' + '\r\n'.repeat(9);
    await expectSameAsParsingEverything({ cols: 4, rows: 6, scrollback: 0 }, [{ kind: 'text', text }], [1]);
  });
});

describe('a mirror thread that is still parsing when a flood begins', () => {
  it('holds the flood once it is idle instead of parsing it all, and ends up the same', async () => {
    const parsed = vi.spyOn(TerminalMirror.prototype, 'write');
    try {
      const events: MirrorEvent[] = [];
      const host = new MirrorHost((event) => events.push(event));
      host.handle({ op: 'open', mirror: 1, cols: 40, rows: 10, scrollback: 50 });
      const reference = new TerminalMirror(40, 10, 50);
      // Something not plain (the cursor sent home) keeps the terminal busy while the flood comes in.
      const chunks = [toBytes('\x1b[Hbusy\r\n'), ...Array.from({ length: 200 }, (_, i) => toBytes(`\x1b[3${i % 8}mline ${i}\x1b[0m ${'x'.repeat(i % 30)}\r\n`.repeat(20)))];
      for (const chunk of chunks) {
        host.handle({ op: 'write', mirror: 1, data: chunk });
        reference.write(chunk);
      }
      const total = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
      const acknowledged = () => events.reduce((sum, event) => sum + (event.kind === 'parsed' ? event.bytes : 0), 0);
      // Nothing reads the mirror while the flood streams by (a read would have it parse what waits).
      await vi.waitFor(() => expect(acknowledged()).toBe(total), { timeout: 10_000, interval: 5 });
      const screen = (await ask(host, events, { op: 'serialize', mirror: 1, request: 1, scrollback: Number.MAX_SAFE_INTEGER })) as string;
      await reference.flushed();
      expect(screen).toBe(reference.serialize(Number.MAX_SAFE_INTEGER));
      const parsedByHost = parsed.mock.calls.filter((_, call) => parsed.mock.contexts[call] !== reference).reduce((sum, [data]) => sum + (typeof data === 'string' ? data.length : data.byteLength), 0);
      expect(parsedByHost).toBeLessThan(total / 4);
      reference.dispose();
      host.handle({ op: 'close', mirror: 1 });
    } finally {
      parsed.mockRestore();
    }
  });
});
