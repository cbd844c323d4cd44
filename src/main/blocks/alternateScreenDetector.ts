/** The sequences that switch to the alternate screen (xterm's 1049, 1047 and the old 47). */
const ENTER_SEQUENCES = ['\x1b[?1049h', '\x1b[?1047h', '\x1b[?47h'].map((sequence) => Buffer.from(sequence, 'latin1'));
/** Bytes kept from the end of a chunk, so a sequence split across chunks is still seen. */
const SEAM = Math.max(...ENTER_SEQUENCES.map((sequence) => sequence.length)) - 1;
/** Every sequence above starts with it. */
const ESC = 0x1b;
const NO_TAIL = Buffer.alloc(0);

/**
 * Notices, in the pty's byte stream as it arrives, a program switching to the alternate screen
 * (vim, less, htop). The headless mirror sees it too, but parses later; the block tracker
 * must know while the block it belongs to is still the current one.
 */
export class AlternateScreenDetector {
  /** The end of what was pushed, from its last ESC on (only a sequence begun there can end in the next chunk); empty without one. */
  private tail: Buffer = NO_TAIL;

  /** Whether `bytes`, following everything pushed before, switch to the alternate screen. */
  push(bytes: Uint8Array): boolean {
    if (bytes.length === 0) return false;
    // Plain output after plain output (typing, most of a flood): no sequence can start or end here.
    if (this.tail.length === 0 && bytes.indexOf(ESC) === -1) return false;
    const chunk = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let found = ENTER_SEQUENCES.some((sequence) => chunk.indexOf(sequence) !== -1);
    if (!found && this.tail.length > 0) {
      const seam = Buffer.concat([this.tail, chunk.subarray(0, SEAM)]);
      // One that ends in this chunk: a switch wholly in the tail was reported with its own chunk.
      found = ENTER_SEQUENCES.some((sequence) => endsBeyond(seam, sequence, this.tail.length));
    }
    const end = chunk.length >= SEAM ? chunk.subarray(chunk.length - SEAM) : Buffer.concat([this.tail, chunk]).subarray(-SEAM);
    const escape = end.lastIndexOf(ESC);
    // A copy: the chunk's memory may be reused by the caller.
    this.tail = escape === -1 ? NO_TAIL : Buffer.from(end.subarray(escape));
    return found;
  }
}

/** Whether `sequence` occurs in `haystack` ending after its first `boundary` bytes. */
function endsBeyond(haystack: Buffer, sequence: Buffer, boundary: number): boolean {
  for (let at = haystack.indexOf(sequence); at !== -1; at = haystack.indexOf(sequence, at + 1)) {
    if (at + sequence.length > boundary) return true;
  }
  return false;
}
