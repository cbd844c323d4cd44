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

/** Whether the rows after a line end may be parsed without what came before them. */
export const enum CutKind {
  /** The attributes are not known here. */
  None = 0,
  /** No SGR since the run began: the attributes are the terminal's own. */
  AsAtStart = 1,
  /** The last SGR was a plain reset: the attributes are the defaults. */
  AfterReset = 2,
}

/**
 * The line ends of a plain run (just after each CR LF): where, how many rows the run had
 * advanced by there (at least), and whether it could be cut there. Typed arrays, not an
 * object per line: `yes` ends a line every three bytes.
 */
export class LineEndLog {
  private offsets: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private rowCounts: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private lineCounts: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private nextRowCounts: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private kinds: Uint8Array<ArrayBuffer> = new Uint8Array(1024);
  /** Entries before `head` were dropped; `end` is one past the last. */
  head = 0;
  end = 0;

  push(offset: number, rows: number, lines: number, kind: CutKind): void {
    if (this.end === this.offsets.length) this.makeRoom();
    this.offsets[this.end] = offset;
    this.rowCounts[this.end] = rows;
    this.lineCounts[this.end] = lines;
    this.nextRowCounts[this.end] = Infinity;
    this.kinds[this.end] = kind;
    this.end++;
  }

  offset(index: number): number {
    return this.offsets[index]!;
  }

  rows(index: number): number {
    return this.rowCounts[index]!;
  }

  /** Line ends in the run up to and including this one. */
  lines(index: number): number {
    return this.lineCounts[index]!;
  }

  /** Rows advanced by the end of the line after this line end; Infinity until that line has ended. */
  nextRows(index: number): number {
    return this.nextRowCounts[index]!;
  }

  /** The line after the last noted line end ended with the run `rows` rows on. */
  nextLineEnded(rows: number): void {
    if (this.end > this.head) this.nextRowCounts[this.end - 1] = rows;
  }

  kind(index: number): CutKind {
    return this.kinds[index]! as CutKind;
  }

  /** Forget the entries before `index`. */
  dropBefore(index: number): void {
    this.head = index;
  }

  clear(): void {
    this.head = 0;
    this.end = 0;
  }

  private makeRoom(): void {
    const live = this.end - this.head;
    if (this.head >= live) {
      this.offsets.copyWithin(0, this.head, this.end);
      this.rowCounts.copyWithin(0, this.head, this.end);
      this.lineCounts.copyWithin(0, this.head, this.end);
      this.nextRowCounts.copyWithin(0, this.head, this.end);
      this.kinds.copyWithin(0, this.head, this.end);
    } else {
      const size = this.offsets.length * 2;
      this.offsets = grow(this.offsets, size, this.head, this.end);
      this.rowCounts = grow(this.rowCounts, size, this.head, this.end);
      this.lineCounts = grow(this.lineCounts, size, this.head, this.end);
      this.nextRowCounts = grow(this.nextRowCounts, size, this.head, this.end);
      const kinds = new Uint8Array(size);
      kinds.set(this.kinds.subarray(this.head, this.end));
      this.kinds = kinds;
    }
    this.head = 0;
    this.end = live;
  }
}

function grow(array: Float64Array<ArrayBuffer>, size: number, from: number, to: number): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(size);
  bigger.set(array.subarray(from, to));
  return bigger;
}

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
  private attributes = CutKind.AsAtStart;
  /** In a plain run, inside `ESC [`: whether the parameters so far are only zeros and separators. */
  private sgrIsReset = true;
  private sgrPlain = true;
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
    this.attributes = CutKind.AsAtStart;
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
        let width = 0;
        do {
          width++;
          byte = bytes[++i]!;
        } while (i < length && byte >= 0x20 && byte < 0x7f);
        this.lineWidth += width;
        if (i >= length) break;
      }
      if (byte === CR && bytes[i + 1] === LF && this.vt === Vt.Ground && this.utf8Need === 0 && !this.crPending) {
        // A line end, the other common case.
        i++;
        this.at = base + i + 1;
        this.lineEnd();
        continue;
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
      this.sgrIsReset = true;
      this.sgrPlain = true;
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
    if (this.noteEvery > 0 && (this.attributes === CutKind.None || this.at - this.lastNoted < this.noteEvery)) return;
    this.lastNoted = this.at;
    this.awaitingNextLine = true;
    this.lineEnds.push(this.at, this.rows, this.lines, this.attributes);
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
      if (code === 0x6d && this.sgrPlain) {
        this.attributes = this.sgrIsReset ? CutKind.AfterReset : CutKind.None;
      } else {
        this.notPlain();
      }
      return;
    }
    if (code >= 0x30 && code <= 0x39) {
      if (code !== 0x30) this.sgrIsReset = false;
    } else if (code === 0x3b) {
      // A separator: zeros and separators only still mean "reset".
    } else if (code === 0x3a) {
      this.sgrIsReset = false;
    } else {
      this.sgrPlain = false;
      if (code > 0x7f) this.vt = Vt.Unknown;
    }
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
