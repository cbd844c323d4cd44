/** The sequences that switch to the alternate screen (xterm's 1049, 1047 and the old 47). */
const ENTER_SEQUENCES = ['\x1b[?1049h', '\x1b[?1047h', '\x1b[?47h'].map((sequence) => Buffer.from(sequence, 'latin1'));
/** Bytes kept from the end of a chunk, so a sequence split across chunks is still seen. */
const SEAM = Math.max(...ENTER_SEQUENCES.map((sequence) => sequence.length)) - 1;
/** Every sequence above starts with it. */
const ESC = 0x1b;
/** Every sequence above has it third (`ESC [ ?`): rare in output, so it is searched for first. */
const QUESTION_MARK = 0x3f;
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
    let found = holdsEnterSequence(chunk);
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

/**
 * Whether one of the sequences lies wholly in `chunk`. One native search for the rare `?`
 * instead of one per sequence for its ESC: a coloured log has an ESC every few bytes.
 */
function holdsEnterSequence(chunk: Buffer): boolean {
  for (let mark = chunk.indexOf(QUESTION_MARK, 2); mark !== -1; mark = chunk.indexOf(QUESTION_MARK, mark + 1)) {
    if (chunk[mark - 2] !== ESC || chunk[mark - 1] !== 0x5b) continue;
    if (ENTER_SEQUENCES.some((sequence) => startsAt(chunk, sequence, mark - 2))) return true;
  }
  return false;
}

function startsAt(chunk: Buffer, sequence: Buffer, at: number): boolean {
  if (at + sequence.length > chunk.length) return false;
  for (let k = 3; k < sequence.length; k++) if (chunk[at + k] !== sequence[k]) return false;
  return true;
}

/** Whether `sequence` occurs in `haystack` ending after its first `boundary` bytes. */
function endsBeyond(haystack: Buffer, sequence: Buffer, boundary: number): boolean {
  for (let at = haystack.indexOf(sequence); at !== -1; at = haystack.indexOf(sequence, at + 1)) {
    if (at + sequence.length > boundary) return true;
  }
  return false;
}
