/** The sequences that switch to the alternate screen (xterm's 1049, 1047 and the old 47). */
const ENTER_SEQUENCES = ['\x1b[?1049h', '\x1b[?1047h', '\x1b[?47h'].map((sequence) => Buffer.from(sequence, 'latin1'));
/** Bytes kept from the end of a chunk, so a sequence split across chunks is still seen. */
const SEAM = Math.max(...ENTER_SEQUENCES.map((sequence) => sequence.length)) - 1;

/**
 * Notices, in the pty's byte stream as it arrives, a program switching to the alternate screen
 * (vim, less, htop). The headless mirror sees it too, but parses later; the block tracker
 * must know while the block it belongs to is still the current one.
 */
export class AlternateScreenDetector {
  private tail: Buffer = Buffer.alloc(0);

  /** Whether `bytes`, following everything pushed before, switch to the alternate screen. */
  push(bytes: Uint8Array): boolean {
    if (bytes.length === 0) return false;
    const chunk = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let found = ENTER_SEQUENCES.some((sequence) => chunk.indexOf(sequence) !== -1);
    if (!found && this.tail.length > 0) {
      const seam = Buffer.concat([this.tail, chunk.subarray(0, SEAM)]);
      found = ENTER_SEQUENCES.some((sequence) => seam.indexOf(sequence) !== -1);
    }
    // A copy: the chunk's memory may be reused by the caller.
    this.tail = Buffer.from(chunk.length >= SEAM ? chunk.subarray(chunk.length - SEAM) : Buffer.concat([this.tail, chunk]).subarray(-SEAM));
    return found;
  }
}
