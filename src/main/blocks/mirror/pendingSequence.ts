const ESC = 0x1b;
/** A sequence still open after this many bytes (a big OSC 52 or sixel) is not carried over. */
const KEPT_BYTES = 64 * 1024;

/**
 * The last bytes written to a terminal, so that an escape sequence cut in two by a snapshot
 * (the snapshot's end falls inside `CSI 3` … `1m`) can be handed on: written after the
 * snapshot, it leaves the new terminal's parser where the old one's is, and the rest of
 * the sequence in the live stream completes it there instead of showing up as text.
 */
export class PendingSequence {
  private chunks: Uint8Array[] = [];
  private kept = 0;

  add(data: Uint8Array | string): void {
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    if (bytes.byteLength === 0) return;
    this.chunks.push(bytes);
    this.kept += bytes.byteLength;
    while (this.chunks.length > 1 && this.kept - this.chunks[0]!.byteLength >= KEPT_BYTES) {
      this.kept -= this.chunks.shift()!.byteLength;
    }
  }

  /**
   * The open sequence (from its ESC on) when the parser is not in its ground state, as
   * text; '' when it is, or when the sequence began before the bytes kept.
   */
  text(parserInGround: boolean): string {
    if (parserInGround) return '';
    for (let index = this.chunks.length - 1; index >= 0; index--) {
      const start = this.chunks[index]!.lastIndexOf(ESC);
      if (start < 0) continue;
      const decoder = new TextDecoder();
      // stream: an incomplete UTF-8 character at the very end stays out (a string cannot hold it).
      const parts = [this.chunks[index]!.subarray(start), ...this.chunks.slice(index + 1)];
      return parts.map((part) => decoder.decode(part, { stream: true })).join('');
    }
    return '';
  }
}
