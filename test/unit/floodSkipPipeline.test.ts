import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TerminalMirror } from '../../src/main/blocks/mirror/terminalMirror';
import { PtyThrottle } from '../../src/main/pty/flowControl';
import { PaneDelivery } from '../../src/main/panes/paneDelivery';
import { referenceTerminal, RendererModel } from '../support/floodPipeline';

/**
 * The engine's delivery, skipping what a renderer that fell behind would only scroll out
 * (pane.skipped), against a terminal that parsed every byte: after any stream, chunking,
 * pace of the renderer and resizes, both must hold exactly the same buffer.
 */

type Op =
  | { kind: 'output'; text: string; chunks: number[]; mirrorFirst: boolean }
  | { kind: 'pump'; count: number }
  | { kind: 'resize'; cols: number; rows: number }
  /** The engine takes the resizes asked of it so far (they arrive late, as over a socket). */
  | { kind: 'engine' };

const SGR = ['\x1b[31m', '\x1b[0m', '\x1b[m', '\x1b[1;38;5;200m', '\x1b[48;2;10;20;30m', '\x1b[7m', '\x1b[0;32m', '\x1b[4:3m'];
const TEXT = ['a', 'bc', 'word ', 'x', '世界', 'e\u0301', '🚀', 'ü', ' ', '12345'];
const OTHER = ['\t', '\b', 'ab\rXY', '\n', '\x1b[?1049h', '\x1b[?1049l', '\x1b[2;4r', '\x1b[r', '\x1b[H', '\x1b[3;2H', '\x1b[2J', '\x1b[K', '\x1b[4h', '\x1b[4l', '\x1b[?7l', '\x1b[?7h', '\x1b[?6h', '\x1b[?6l', '\x1b]0;title\x07', '\x1b7', '\x1b8', '\x1b(0', '\x1b(B', '\x1bc'];

/** Lines of text (some wrapping, some coloured), and now and then something that is not plain text. */
const streamPart = fc.oneof(
  { weight: 6, arbitrary: fc.record({ lines: fc.nat({ max: 400 }), seed: fc.array(fc.oneof(fc.constantFrom(...TEXT), fc.constantFrom(...SGR)), { minLength: 1, maxLength: 12 }), long: fc.nat({ max: 4 }) }) },
  { weight: 1, arbitrary: fc.constantFrom(...OTHER) },
);

function textOf(part: string | { lines: number; seed: string[]; long: number }): string {
  if (typeof part === 'string') return part;
  let text = '';
  for (let line = 0; line < part.lines; line++) {
    const pieces = part.seed.slice(0, 1 + ((line * 7) % part.seed.length));
    const repeat = line % 11 === 0 ? part.long + 1 : 1;
    text += pieces.join('').repeat(repeat) + '\r\n';
  }
  return text;
}

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('output' as const), text: fc.array(streamPart, { minLength: 1, maxLength: 4 }).map((parts) => parts.map(textOf).join('')), chunks: fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 5 }), mirrorFirst: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('pump' as const), count: fc.integer({ min: 0, max: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resize' as const), cols: fc.integer({ min: 4, max: 40 }), rows: fc.integer({ min: 2, max: 12 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'engine' as const }) },
);

const settle = () => new Promise((resolve) => setTimeout(resolve, 6));

async function skipAndCompare(size: { cols: number; rows: number; scrollback: number }, ops: Op[], skipAtLeast: number, cutsApart = 1) {
  const engineSize = { cols: size.cols, rows: size.rows };
  // The mirror thread's view, to say where the screen is plain: the engine's stream at its own pace.
  const mirror = new TerminalMirror(size.cols, size.rows, size.scrollback);
  const parsed = { offset: 0, plain: false };
  const throttle = new PtyThrottle(
    () => undefined,
    () => undefined,
  );
  const delivery = new PaneDelivery(
    1,
    throttle,
    { cols: () => engineSize.cols, rows: () => engineSize.rows, scrollback: () => size.scrollback, parsedScreen: () => ({ ...parsed }) },
    { window: { high: 700, low: 300 }, skipAtLeast, cutsApart },
  );
  const asked: { cols: number; rows: number }[] = [];
  const renderer = new RendererModel(size, (bytes) => delivery.acknowledge(bytes), (cols, rows) => asked.push({ cols, rows }));
  delivery.attach(renderer.listener);
  const stream: Uint8Array[] = [];
  let total = 0;
  const toMirror = async (bytes: Uint8Array) => {
    mirror.write(bytes);
    await mirror.flushed();
    parsed.offset += bytes.length;
    parsed.plain = mirror.plainScreen;
  };
  for (const step of ops) {
    if (step.kind === 'output') {
      const bytes = new TextEncoder().encode(step.text);
      stream.push(bytes);
      total += bytes.length;
      if (step.mirrorFirst) await toMirror(bytes);
      for (let at = 0, i = 0; at < bytes.length; i++) {
        const size = step.chunks[i % step.chunks.length]!;
        delivery.output(bytes.subarray(at, at + size));
        at += size;
      }
      if (!step.mirrorFirst) await toMirror(bytes);
      await settle();
    } else if (step.kind === 'pump') {
      await renderer.pump(step.count);
    } else if (step.kind === 'resize') {
      renderer.resize(step.cols, step.rows);
    } else {
      for (const { cols, rows } of asked.splice(0)) {
        Object.assign(engineSize, { cols, rows });
        mirror.resize(cols, rows);
        delivery.resized(cols, rows);
      }
    }
  }
  for (const { cols, rows } of asked.splice(0)) {
    Object.assign(engineSize, { cols, rows });
    delivery.resized(cols, rows);
  }
  delivery.flushAll();
  while (renderer.waiting > 0 || delivery.outstanding > 0) {
    await renderer.pump();
    await settle();
  }
  const whole = new Uint8Array(total);
  stream.reduce((at, bytes) => (whole.set(bytes, at), at + bytes.length), 0);
  expect(renderer.streamOffset).toBe(total);
  const expected = await referenceTerminal(size, whole, renderer.resizes);
  expect(renderer.state()).toEqual(expected);
  const skipped = renderer.skipped;
  renderer.dispose();
  mirror.dispose();
  return skipped;
}

describe('skipping a flood the renderer fell behind on', () => {
  it('leaves the renderer exactly as parsing every byte would, whatever the stream, pace and resizes', async () => {
    let skippedSomething = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({ cols: fc.integer({ min: 4, max: 40 }), rows: fc.integer({ min: 2, max: 12 }), scrollback: fc.integer({ min: 0, max: 60 }) }),
        fc.array(op, { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 0, max: 400 }),
        fc.constantFrom(1, 1, 1, 64, 1024),
        async (size, ops, skipAtLeast, cutsApart) => {
          if ((await skipAndCompare(size, ops, skipAtLeast, cutsApart)) > 0) skippedSomething++;
        },
      ),
      { numRuns: 120 },
    );
    // The property says nothing if nothing was ever skipped.
    expect(skippedSomething).toBeGreaterThan(20);
  }, 240_000);

  it('cuts late enough that rows the renderer moves down onto before its screen scrolls are gone too', async () => {
    // The renderer gets the full-width Y rows and a cursor sent home, then falls behind: after a
    // cut, the lines it is sent overwrite the start of those rows until its screen scrolls.
    const ops: Op[] = [
      { kind: 'output', text: 'YYYYYYYYYY\r\n'.repeat(50), chunks: [4096], mirrorFirst: true },
      { kind: 'pump', count: 1 },
      { kind: 'output', text: '\x1b[Ha\r\na\r\n', chunks: [4096], mirrorFirst: true },
      { kind: 'output', text: 'a\r\n'.repeat(2000), chunks: [4096], mirrorFirst: true },
    ];
    expect(await skipAndCompare({ cols: 10, rows: 5, scrollback: 0 }, ops, 0)).toBeGreaterThan(3000);
  });

  it('shows more rows only once the stream is for them: a taller screen would keep lines never sent', async () => {
    const ops: Op[] = [
      { kind: 'output', text: 'YYYYYYYYYY\r\n'.repeat(50), chunks: [4096], mirrorFirst: true },
      { kind: 'pump', count: 1 },
      { kind: 'output', text: '\x1b[Ha\r\na\r\n', chunks: [4096], mirrorFirst: true },
      { kind: 'output', text: 'a\r\n'.repeat(2000), chunks: [4096], mirrorFirst: true },
      // The window grows while the renderer is behind; the engine hears of it only later.
      { kind: 'resize', cols: 10, rows: 12 },
      { kind: 'pump', count: 2 },
      { kind: 'engine' },
      { kind: 'output', text: 'b\r\n', chunks: [4096], mirrorFirst: true },
    ];
    expect(await skipAndCompare({ cols: 10, rows: 3, scrollback: 0 }, ops, 0)).toBeGreaterThan(3000);
  });

  it('skips most of a long plain flood, and the rest comes out as if nothing was skipped', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `\x1b[3${i % 8}mline ${i} ${'x'.repeat(i % 50)}\x1b[0m\r\n`).join('');
    const skipped = await skipAndCompare({ cols: 30, rows: 8, scrollback: 100 }, [{ kind: 'output', text: lines, chunks: [4096], mirrorFirst: true }, { kind: 'pump', count: 3 }], 0);
    expect(skipped).toBeGreaterThan(lines.length / 2);
  });
});
