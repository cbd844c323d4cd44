import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitAtAnchors, type StreamAnchor } from '../../src/renderer/src/blocks/outputSegments';

const chunkAndAnchors = fc
  .record({
    chunk: fc.uint8Array({ maxLength: 64 }),
    chunkOffset: fc.nat({ max: 1_000 }),
    offsets: fc.array(fc.nat({ max: 1_200 }), { maxLength: 8 }),
  })
  .map(({ chunk, chunkOffset, offsets }) => ({
    chunk,
    chunkOffset,
    anchors: [...offsets]
      .sort((a, b) => a - b)
      .map((offset, index): StreamAnchor => ({ blockId: `b${index}`, edge: index % 2 ? 'end' : 'start', offset })),
  }));

describe('splitAtAnchors', () => {
  it('preserves the bytes: the segments concatenate to the chunk', () => {
    fc.assert(
      fc.property(chunkAndAnchors, ({ chunk, chunkOffset, anchors }) => {
        const { segments } = splitAtAnchors(chunk, chunkOffset, anchors);
        expect(segments.length).toBeGreaterThan(0);
        const joined = new Uint8Array(segments.reduce((sum, segment) => sum + segment.bytes.byteLength, 0));
        let at = 0;
        for (const segment of segments) {
          joined.set(segment.bytes, at);
          at += segment.bytes.byteLength;
        }
        expect([...joined]).toEqual([...chunk]);
      }),
    );
  });

  it('places each anchor inside the chunk exactly at its byte, in order, and keeps later ones pending', () => {
    fc.assert(
      fc.property(chunkAndAnchors, ({ chunk, chunkOffset, anchors }) => {
        const end = chunkOffset + chunk.byteLength;
        const { segments, pending } = splitAtAnchors(chunk, chunkOffset, anchors);
        expect(pending).toEqual(anchors.filter((anchor) => anchor.offset >= end));
        const placed: StreamAnchor[] = [];
        let written = 0;
        for (const segment of segments) {
          written += segment.bytes.byteLength;
          for (const anchor of segment.anchorsAfter) {
            // After this segment is parsed the stream is exactly at the anchor (earlier ones: at the start).
            expect(chunkOffset + written).toBe(Math.max(chunkOffset, anchor.offset));
            placed.push(anchor);
          }
        }
        expect(placed).toEqual(anchors.filter((anchor) => anchor.offset < end));
        // No empty segment without a reason to exist.
        segments.forEach((segment, index) => {
          if (segment.bytes.byteLength === 0) expect(segment.anchorsAfter.length > 0 || (segments.length === 1 && index === 0)).toBe(true);
        });
      }),
    );
  });

  it('cuts a chunk at a command start in the middle', () => {
    const chunk = new TextEncoder().encode('prompt$ ls\r\nfile\r\n');
    const anchor: StreamAnchor = { blockId: 'p1b1', edge: 'start', offset: 112 };
    const { segments, pending } = splitAtAnchors(chunk, 100, [anchor]);
    expect(pending).toEqual([]);
    expect(segments.map((segment) => new TextDecoder().decode(segment.bytes))).toEqual(['prompt$ ls\r\n', 'file\r\n']);
    expect(segments.map((segment) => segment.anchorsAfter)).toEqual([[anchor], []]);
  });

  it('an anchor at the chunk end waits for the next chunk, which places it first', () => {
    const chunk = new Uint8Array([1, 2, 3]);
    const anchor: StreamAnchor = { blockId: 'x', edge: 'end', offset: 13 };
    const first = splitAtAnchors(chunk, 10, [anchor]);
    expect(first.pending).toEqual([anchor]);
    expect(first.segments).toEqual([{ bytes: chunk, anchorsAfter: [] }]);
    const second = splitAtAnchors(new Uint8Array([4]), 13, first.pending);
    expect(second.segments[0]).toEqual({ bytes: new Uint8Array(0), anchorsAfter: [anchor] });
    expect([...second.segments[1]!.bytes]).toEqual([4]);
  });
});
