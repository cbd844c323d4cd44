import { LineEndLog } from './lineEndLog';
import { SgrReplay } from './sgrReplay';

/** Parser states as far as "is xterm between sequences?" needs them (xterm's VT500 parser). */
const enum Vt {
  Ground,
  Escape,
  EscapeIntermediate,
  Csi,
  OscString,
  /** DCS, SOS, PM, APC: they end at ESC (ST) or CAN/SUB only. */
  OtherString,
  /** Somewhere we do not model; the next ESC brings certainty back. */
  Unknown,
}

const ESC = 0x1b;
const CAN = 0x18;
const SUB = 0x1a;
const BEL = 0x07;
const CR = 0x0d;
const LF = 0x0a;
const SGR_FINAL = 0x6d;

/**
 * Follows output byte by byte the way xterm's UTF-8 decoder and escape-sequence parser
 * would, to answer two questions cheaply: is the parser between sequences (so a run of
 * plain text may start), and is a run "plain" — only printable text, CR LF line ends and
 * SGR colour sequences, which move the cursor in no way but down the screen. For a plain
 * run it lists the line ends and how many rows the run advanced, counting only ASCII
 * characters as wide (others may be 0, 1 or 2 cells), so the count never exceeds the truth.
 *
 * Where xterm's exact behaviour is not modelled, the scanner errs towards "not plain" and
 * "not between sequences"; it never claims plain text that xterm would parse otherwise.
 */
export class PlainTextScanner {
  private vt = Vt.Ground;
  /** UTF-8: continuation bytes still expected, and the sequence so far. */
  private utf8Need = 0;
  private utf8Code = 0;
  private utf8Length = 0;
  private crPending = false;

  // The current run.
  private inRun = false;
  private runPlain = false;
  private cols = 80;
  private runLength = 0;
  private rows = 0;
  private lines = 0;
  /** Run offset of the last line end noted, for `noteEvery`. */
  private lastNoted = -Infinity;
  /** The last noted line end waits for the end of the line after it. */
  private awaitingNextLine = false;
  private lineWidth = 0;
  /** The run's SGR sequences, to write after a cut so the attributes there are exact. */
  private replay = new SgrReplay();
  /** What a cut at the next line end writes first (undefined: not known), while no SGR changes it. */
  private notedPrefix: Uint8Array | undefined;
  private notedPrefixValid = false;
  /** Inside `ESC [`: whether it is still an SGR sequence (digits, `;`, `:`), and its parameters. */
  private sgrPlain = true;
  private readonly sgrParameters: number[] = [];
  private sgrLength = 0;
  /** Line ends of the current plain run. */
  readonly lineEnds = new LineEndLog();
  /** Offset in the run just after the byte being scanned. */
  private at = 0;

  /**
   * `noteEvery`: 0 notes every line end; more notes only line ends where a cut may be made
   * (their attributes known), at least this many bytes apart (`yes` ends a line every 3 bytes).
   */
  constructor(private readonly noteEvery = 0) {}

  /** xterm is between sequences: a plain run may begin at the next byte. */
  get atBoundary(): boolean {
    return this.vt === Vt.Ground && this.utf8Need === 0 && !this.crPending;
  }

  /** Every byte since beginRun() was plain. */
  get plain(): boolean {
    return this.inRun && this.runPlain;
  }

  /** Starts counting a plain run at a boundary; `cols` is the terminal's width. */
  beginRun(cols: number): void {
    this.inRun = true;
    this.runPlain = this.atBoundary;
    this.cols = Math.max(1, cols);
    this.runLength = 0;
    this.rows = 0;
    this.lines = 0;
    this.lastNoted = -Infinity;
    this.awaitingNextLine = false;
    this.lineWidth = 0;
    // Whatever attributes the terminal has now stay until the run's first SGR.
    this.replay = new SgrReplay();
    this.notedPrefixValid = false;
    this.lineEnds.clear();
  }

  endRun(): void {
    this.inRun = false;
    this.runPlain = false;
    this.lineEnds.clear();
  }

  /** Rows the current plain run has advanced by, at least. */
  get rowsSoFar(): number {
    return this.rows;
  }

  /** Line ends in the current plain run. */
  get linesSoFar(): number {
    return this.lines;
  }

  scan(bytes: Uint8Array): void {
    const base = this.runLength;
    const length = bytes.length;
    for (let i = 0; i < length; i++) {
      let byte = bytes[i]!;
      if (byte >= 0x20 && byte < 0x7f && this.vt === Vt.Ground && this.utf8Need === 0 && !this.crPending) {
        // The common case, printable ASCII in the ground state, without a call per byte.
        let end = i + 1;
        while (end < length) {
          const next = bytes[end]!;
          if (next < 0x20 || next >= 0x7f) break;
          end++;
        }
        this.lineWidth += end - i;
        i = end;
        if (i >= length) break;
        byte = bytes[i]!;
      }
      if (byte === CR && bytes[i + 1] === LF && this.vt === Vt.Ground && this.utf8Need === 0 && !this.crPending) {
        // A line end, the other common case.
        i++;
        this.at = base + i + 1;
        this.lineEnd();
        continue;
      }
      if (byte === ESC && bytes[i + 1] === 0x5b && this.vt === Vt.Ground && this.utf8Need === 0 && !this.crPending) {
        const end = sgrParametersEnd(bytes, i + 2);
        if (end > 0) {
          // A whole SGR sequence (most escapes of a coloured flood), read in one go.
          this.replay.add(bytes, i + 2, end);
          this.notedPrefixValid = false;
          i = end;
          continue;
        }
      }
      if (byte >= 0xc2 && byte <= 0xf4 && this.vt === Vt.Ground && this.utf8Need === 0 && !this.crPending) {
        const end = wholeCharacterEnd(bytes, i, byte);
        if (end > 0) {
          // A printable character of two to four bytes (width 0, 1 or 2: counted as 0), read in one go.
          i = end - 1;
          continue;
        }
      }
      if (this.utf8Need > 0) {
        if ((byte & 0xc0) === 0x80) {
          this.utf8Code = (this.utf8Code << 6) | (byte & 0x3f);
          if (--this.utf8Need === 0) this.codepointDone();
          continue;
        }
        // Like xterm's decoder: the broken sequence is dropped and this byte read afresh.
        this.utf8Need = 0;
        this.notPlain();
      }
      if (byte >= 0x80) {
        this.utf8Start(byte);
        continue;
      }
      this.at = base + i + 1;
      this.codepoint(byte);
    }
    this.runLength += bytes.length;
  }

  private utf8Start(byte: number): void {
    if ((byte & 0xe0) === 0xc0) this.utf8Begin(byte & 0x1f, 1);
    else if ((byte & 0xf0) === 0xe0) this.utf8Begin(byte & 0x0f, 2);
    else if ((byte & 0xf8) === 0xf0) this.utf8Begin(byte & 0x07, 3);
    // A stray continuation byte or an invalid lead: xterm's decoder drops it.
    else this.notPlain();
  }

  private utf8Begin(bits: number, need: number): void {
    this.utf8Code = bits;
    this.utf8Need = need;
    this.utf8Length = need + 1;
  }

  private codepointDone(): void {
    const code = this.utf8Code;
    const length = this.utf8Length;
    const shortest = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (length !== shortest || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff || code === 0xfeff) {
      // Overlong, surrogate, out of range or BOM: xterm's decoder drops these.
      this.notPlain();
      return;
    }
    this.codepoint(code);
  }

  private codepoint(code: number): void {
    if (code === CAN || code === SUB) {
      this.vt = Vt.Ground;
      this.crPending = false;
      this.notPlain();
      return;
    }
    if (code === ESC) {
      this.vt = Vt.Escape;
      if (this.crPending) {
        // A CR not followed by LF: the next text overwrites the line.
        this.crPending = false;
        this.notPlain();
      }
      this.sgrPlain = true;
      this.sgrLength = 0;
      return;
    }
    if (code >= 0x80 && code <= 0x9f) {
      this.crPending = false;
      this.c1(code);
      return;
    }
    switch (this.vt) {
      case Vt.Ground:
        this.ground(code);
        return;
      case Vt.Escape:
        this.escape(code);
        return;
      case Vt.EscapeIntermediate:
        if (code >= 0x30 && code <= 0x7e) this.vt = Vt.Ground;
        else if (code > 0x7f) this.vt = Vt.Unknown;
        this.notPlain();
        return;
      case Vt.Csi:
        this.csi(code);
        return;
      case Vt.OscString:
        if (code === BEL) this.vt = Vt.Ground;
        this.notPlain();
        return;
      case Vt.OtherString:
      case Vt.Unknown:
        this.notPlain();
        return;
    }
  }

  private ground(code: number): void {
    if (this.crPending) {
      this.crPending = false;
      if (code !== LF) this.notPlain();
      else this.lineEnd();
      return;
    }
    if (code >= 0x20 && code < 0x7f) {
      this.lineWidth++;
    } else if (code >= 0xa0) {
      // Width 0, 1 or 2: counted as 0 so the row count stays a lower bound.
    } else if (code === CR) {
      this.crPending = true;
    } else if (code !== BEL) {
      // LF without CR, tab, backspace, shift-in/out, DEL...: they move the cursor or change
      // how text is read in ways the row count does not follow.
      this.notPlain();
    }
  }

  private lineEnd(): void {
    if (!this.plain) return;
    this.rows += this.lineWidth > this.cols ? Math.ceil(this.lineWidth / this.cols) : 1;
    this.lines++;
    this.lineWidth = 0;
    if (this.awaitingNextLine) {
      this.lineEnds.nextLineEnded(this.rows);
      this.awaitingNextLine = false;
    }
    if (this.noteEvery > 0 && (this.at - this.lastNoted < this.noteEvery || !this.cutPrefix())) return;
    this.lastNoted = this.at;
    this.awaitingNextLine = true;
    this.lineEnds.push(this.at, this.rows, this.lines, this.cutPrefix());
  }

  private escape(code: number): void {
    if (code === 0x5b) {
      this.vt = Vt.Csi;
      return;
    }
    this.notPlain();
    if (code >= 0x20 && code <= 0x2f) this.vt = Vt.EscapeIntermediate;
    else if (code === 0x5d) this.vt = Vt.OscString;
    else if (code === 0x50 || code === 0x58 || code === 0x5e || code === 0x5f) this.vt = Vt.OtherString;
    else if (code >= 0x30 && code <= 0x7e) this.vt = Vt.Ground;
    else if (code > 0x7f) this.vt = Vt.Unknown;
    // C0 controls are executed and leave the parser in ESCAPE; DEL is ignored.
  }

  private csi(code: number): void {
    if (code >= 0x40 && code <= 0x7e) {
      this.vt = Vt.Ground;
      if (code === SGR_FINAL && this.sgrPlain) {
        this.sgrDone();
      } else {
        this.notPlain();
      }
      return;
    }
    if ((code >= 0x30 && code <= 0x39) || code === 0x3b || code === 0x3a) {
      this.sgrParameters[this.sgrLength++] = code;
    } else {
      this.sgrPlain = false;
      if (code > 0x7f) this.vt = Vt.Unknown;
    }
  }

  private sgrDone(): void {
    this.replay.add(this.sgrParameters, 0, this.sgrLength);
    this.notedPrefixValid = false;
  }

  /** What a cut at this line end writes first; undefined when the attributes are not known. */
  private cutPrefix(): Uint8Array | undefined {
    if (!this.notedPrefixValid) {
      this.notedPrefix = this.replay.sequence();
      this.notedPrefixValid = true;
    }
    return this.notedPrefix;
  }

  private c1(code: number): void {
    this.notPlain();
    if (code === 0x9b) this.vt = Vt.Csi;
    else if (code === 0x9d) this.vt = Vt.OscString;
    else if (code === 0x90 || code === 0x98 || code === 0x9e || code === 0x9f) this.vt = Vt.OtherString;
    else if (code === 0x9c) this.vt = Vt.Ground;
    else this.vt = Vt.Unknown;
  }

  private notPlain(): void {
    this.runPlain = false;
  }
}

/**
 * The end of the well-formed UTF-8 sequence of a printable character (U+00A0 and up, not a
 * surrogate or BOM) starting at `start` with lead byte `lead`, if it is whole in `bytes`;
 * otherwise 0 (the byte-by-byte path decides, across chunks too).
 */
function wholeCharacterEnd(bytes: Uint8Array, start: number, lead: number): number {
  const need = lead < 0xe0 ? 1 : lead < 0xf0 ? 2 : 3;
  const end = start + need + 1;
  if (end > bytes.length) return 0;
  let code = lead & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
  for (let k = start + 1; k < end; k++) {
    const next = bytes[k]!;
    if ((next & 0xc0) !== 0x80) return 0;
    code = (code << 6) | (next & 0x3f);
  }
  const shortest = code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  if (code < 0xa0 || shortest !== need + 1 || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff || code === 0xfeff) return 0;
  return end;
}

/** Where the `m` of an SGR sequence whose parameters (digits, `;`, `:`) start at `start` is, if it is whole in `bytes`; otherwise 0. */
function sgrParametersEnd(bytes: Uint8Array, start: number): number {
  for (let k = start; k < bytes.length; k++) {
    const byte = bytes[k]!;
    if (byte === SGR_FINAL) return k;
    if (!((byte >= 0x30 && byte <= 0x39) || byte === 0x3b || byte === 0x3a)) return 0;
  }
  return 0;
}
