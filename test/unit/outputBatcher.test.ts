import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { OutputBatcher, utf8SafeEnd } from '../../src/main/pty/outputBatcher';

const settle = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits (polling) until `assertion` passes: batches go out on timers of their own. */
const eventually = (assertion: () => void) => vi.waitFor(assertion, { timeout: 5_000, interval: 5 });

function collector() {
  const sent: Uint8Array[] = [];
  const batcher = new OutputBatcher((bytes) => sent.push(Uint8Array.from(bytes)), { maxDelayMs: 5, maxBytes: 1024 });
  const joined = () => Buffer.concat(sent.map((chunk) => Buffer.from(chunk)));
  return { sent, batcher, joined };
}

describe('OutputBatcher', () => {
  it('delivers every byte in order, whatever the chunking', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 700 }), { maxLength: 12 }), async (chunks) => {
        const { batcher, joined } = collector();
        for (const chunk of chunks) batcher.push(chunk);
        await eventually(() => expect(joined()).toEqual(Buffer.concat(chunks.map((c) => Buffer.from(c)))));
      }),
      { numRuns: 40 },
    );
  });

  it('never sends more than maxBytes at once and never splits a character it could complete', async () => {
    const text = '日本語のテキスト🙂'.repeat(200);
    const data = new TextEncoder().encode(text);
    const { sent, batcher, joined } = collector();
    for (let i = 0; i < data.length; i += 333) batcher.push(data.subarray(i, i + 333));
    await eventually(() => expect(joined().toString('utf8')).toBe(text));
    for (const chunk of sent) {
      expect(chunk.length).toBeLessThanOrEqual(1024);
      expect(() => new TextDecoder('utf-8', { fatal: true }).decode(chunk)).not.toThrow();
    }
  });

  it('coalesces a burst into few sends', async () => {
    const { sent, batcher, joined } = collector();
    for (let i = 0; i < 100; i++) batcher.push(new Uint8Array([65]));
    await eventually(() => expect(joined().length).toBe(100));
    expect(sent.length).toBeLessThan(5);
  });

  it('eventually sends a dangling partial character (invalid UTF-8 is not stuck)', async () => {
    const { batcher, joined } = collector();
    batcher.push(new Uint8Array([0x41, 0xe6, 0x97]));
    await eventually(() => expect([...joined()]).toEqual([0x41, 0xe6, 0x97]));
  });
});

describe('OutputBatcher with a window', () => {
  it('never sends more than the room left, keeps the rest, and sends it all in order as room comes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.integer({ min: 0, max: 2_000 })), { maxLength: 15 }),
        async (steps) => {
          let room = 0;
          const sent: Uint8Array[] = [];
          let flushes = 0;
          const batcher = new OutputBatcher(
            (bytes) => {
              expect(bytes.length).toBeLessThanOrEqual(room);
              sent.push(Uint8Array.from(bytes));
              room -= bytes.length;
            },
            { maxDelayMs: 1, maxBytes: 1024, room: () => room, flushed: () => flushes++ },
          );
          let text = '';
          for (const [chunk, grant] of steps) {
            text += chunk;
            batcher.push(new TextEncoder().encode(chunk));
            room += grant;
            batcher.flushNow();
          }
          room = Infinity;
          batcher.flushNow();
          await eventually(() => expect(Buffer.concat(sent.map((chunk) => Buffer.from(chunk))).toString('utf8')).toBe(text));
          for (const chunk of sent) expect(() => new TextDecoder('utf-8', { fatal: true }).decode(chunk)).not.toThrow();
          expect(batcher.pending).toBe(0);
          expect(flushes).toBeGreaterThan(0);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('does not send while the window is shut, and reports every flush', async () => {
    let room = 0;
    let flushes = 0;
    const sent: Uint8Array[] = [];
    const batcher = new OutputBatcher(
      (bytes) => {
        sent.push(bytes);
        room -= bytes.length;
      },
      { maxDelayMs: 1, room: () => room, flushed: () => flushes++ },
    );
    batcher.push(new Uint8Array(5_000));
    // Time for a timer flush to happen, were the window ignored.
    await settle(10);
    expect(sent).toHaveLength(0);
    expect(batcher.pending).toBe(5_000);
    room = 4_096;
    batcher.flushNow();
    expect(sent.map((chunk) => chunk.length)).toEqual([4_096]);
    expect(batcher.pending).toBe(904);
    expect(flushes).toBe(1);
  });

  it('joins only the chunks a frame needs, however much waits (a flood being skipped keeps megabytes)', () => {
    let room = 0;
    const sent: Uint8Array[] = [];
    const batcher = new OutputBatcher(
      (bytes) => {
        sent.push(bytes);
        room -= bytes.length;
      },
      { maxDelayMs: 1, room: () => room },
    );
    for (let i = 0; i < 1_000; i++) batcher.push(new Uint8Array(1_024).fill(0x61 + (i % 26)));
    for (let frame = 0; frame < 3; frame++) {
      room = 2_048;
      batcher.flushNow();
    }
    expect(sent.map((chunk) => chunk.length)).toEqual([2_048, 2_048, 2_048]);
    // Each frame is cut from a join of two 1 KB chunks, not from a copy of the whole megabyte.
    expect(sent.map((chunk) => chunk.buffer.byteLength)).toEqual([2_048, 2_048, 2_048]);
    expect(sent.map((chunk) => [chunk[0], chunk[2_047]])).toEqual([
      [0x61, 0x62],
      [0x63, 0x64],
      [0x65, 0x66],
    ]);
    expect(batcher.pending).toBe(1_000 * 1_024 - 3 * 2_048);
  });
});

describe('utf8SafeEnd', () => {
  it('backs off a partial sequence at the end and keeps complete ones', () => {
    const snowman = [0xe2, 0x98, 0x83];
    expect(utf8SafeEnd(new Uint8Array([0x41, ...snowman]), 4)).toBe(4);
    expect(utf8SafeEnd(new Uint8Array([0x41, 0xe2, 0x98]), 3)).toBe(1);
    expect(utf8SafeEnd(new Uint8Array([0x41, 0xff]), 2)).toBe(2);
    expect(utf8SafeEnd(new Uint8Array([0x80, 0x80, 0x80, 0x80]), 4)).toBe(4);
  });
});
