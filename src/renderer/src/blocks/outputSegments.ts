/** A block edge (command start or end) waiting for its byte offset in the output stream. */
export interface StreamAnchor {
  blockId: string;
  edge: 'start' | 'end';
  offset: number;
}

export interface OutputSegment {
  bytes: Uint8Array;
  /** Anchors to place once `bytes` has been parsed (the cursor is then exactly at them). */
  anchorsAfter: StreamAnchor[];
}

/**
 * Cuts a chunk that begins at stream offset `chunkOffset` at every anchor falling inside it.
 * `anchors` must be sorted by offset; anchors before the chunk land at its start. Returns the
 * segments and the anchors that lie beyond the chunk (still pending).
 */
export function splitAtAnchors(
  chunk: Uint8Array,
  chunkOffset: number,
  anchors: readonly StreamAnchor[],
): { segments: OutputSegment[]; pending: StreamAnchor[] } {
  const end = chunkOffset + chunk.byteLength;
  const segments: OutputSegment[] = [];
  const pending: StreamAnchor[] = [];
  let cut = 0;
  let current: OutputSegment | undefined;
  for (const anchor of anchors) {
    if (anchor.offset >= end) {
      pending.push(anchor);
      continue;
    }
    const at = Math.max(0, anchor.offset - chunkOffset);
    if (!current || at > cut) {
      current = { bytes: chunk.subarray(cut, at), anchorsAfter: [] };
      segments.push(current);
      cut = at;
    }
    current.anchorsAfter.push(anchor);
  }
  if (cut < chunk.byteLength || segments.length === 0) {
    segments.push({ bytes: chunk.subarray(cut), anchorsAfter: [] });
  }
  return { segments, pending };
}
