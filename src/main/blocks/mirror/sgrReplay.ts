const ESC = 0x1b;
const LEFT_BRACKET = 0x5b;
const SEMICOLON = 0x3b;
const COLON = 0x3a;
const SGR_FINAL = 0x6d;

/** Past this many bytes the attributes of a run count as unknown (many colour changes that are never reset). */
const MAX_BYTES = 512;
/** Sequences waiting to be applied are applied once they take this many bytes. */
const MAX_PENDING = 4096;

/**
 * The SGR sequences of a plain run, kept as the shortest list that sets the same attributes:
 * written after a cut, they make the attributes what they were there. Each SGR parameter sets
 * some attributes to a value (bold on, the foreground to red, bold and faint off...), so a
 * parameter whose attributes a later one sets again is dropped, and a reset empties the list.
 * Written over attributes that already had some of the run's parameters applied, the list
 * still ends up the same: the last parameter to set an attribute decides it.
 */
export class SgrReplay {
  /** Parameters (one SGR parameter, or an extended colour with its values), each with the attributes it sets. */
  private parameters: Parameter[] = [];
  private reset = false;
  private bytes = 0;
  private known = true;
  /**
   * Sequences since the last look, not yet applied (each followed by `m`): most of a flood's
   * are undone by a reset before anyone asks, and a reset only empties this.
   */
  private pending: number[] = [];
  private pendingLength = 0;

  /** An SGR sequence's parameter bytes (digits, `;` and `:`; `sequence` from `from` to `to`), as the terminal parsed them. */
  add(sequence: ArrayLike<number>, from = 0, to = sequence.length): void {
    if (isPlainReset(sequence, from, to)) {
      this.pendingLength = 0;
      this.parameters.length = 0;
      this.reset = true;
      this.bytes = 0;
      this.known = true;
      return;
    }
    for (let i = from; i < to; i++) this.pending[this.pendingLength++] = sequence[i]!;
    this.pending[this.pendingLength++] = SGR_FINAL;
    if (this.pendingLength > MAX_PENDING) this.applyPending();
  }

  private applyPending(): void {
    for (let start = 0; start < this.pendingLength; ) {
      const end = this.pending.indexOf(SGR_FINAL, start);
      this.apply(this.pending, start, end);
      start = end + 1;
    }
    this.pendingLength = 0;
  }

  private apply(sequence: readonly number[], from: number, to: number): void {
    const parameters = parametersOf(sequence.slice(from, to), to - from);
    if (!parameters) {
      // An extended colour cut short: what it does is not followed, until a reset.
      this.known = false;
      return;
    }
    for (const parameter of parameters) {
      if (parameter.sets === ALL) {
        this.parameters.length = 0;
        this.reset = true;
        this.bytes = 0;
        this.known = true;
        continue;
      }
      if (!this.known) continue;
      if (parameter.sets !== UNKNOWN) this.dropSetAgainBy(parameter.sets);
      this.parameters.push(parameter);
      this.bytes += parameter.bytes.length + 1;
      if (this.bytes > MAX_BYTES) this.known = false;
    }
  }

  /** What makes the attributes what they are now, written after the run's start; undefined when not known. */
  sequence(): Uint8Array | undefined {
    this.applyPending();
    if (!this.known) return undefined;
    const out: number[] = this.reset ? [ESC, LEFT_BRACKET, 0x30, SGR_FINAL] : [];
    if (this.parameters.length > 0) {
      out.push(ESC, LEFT_BRACKET);
      this.parameters.forEach((parameter, index) => {
        if (index > 0) out.push(SEMICOLON);
        out.push(...parameter.bytes);
      });
      out.push(SGR_FINAL);
    }
    return new Uint8Array(out);
  }

  /** Drops the parameters all of whose attributes `sets` sets again. */
  private dropSetAgainBy(sets: number): void {
    let kept = 0;
    for (const parameter of this.parameters) {
      if (parameter.sets === UNKNOWN || (parameter.sets & ~sets) !== 0) this.parameters[kept++] = parameter;
      else this.bytes -= parameter.bytes.length + 1;
    }
    this.parameters.length = kept;
  }
}

interface Parameter {
  readonly bytes: readonly number[];
  readonly sets: number;
}

const BOLD = 1 << 0;
const FAINT = 1 << 1;
const ITALIC = 1 << 2;
const UNDERLINE = 1 << 3;
const BLINK = 1 << 4;
const INVERSE = 1 << 5;
const INVISIBLE = 1 << 6;
const STRIKETHROUGH = 1 << 7;
const OVERLINE = 1 << 8;
const FOREGROUND = 1 << 9;
const BACKGROUND = 1 << 10;
const UNDERLINE_COLOUR = 1 << 11;
const ALL = (1 << 12) - 1;
/** A parameter whose effect is not modelled: kept, and nothing is dropped because of it. */
const UNKNOWN = -1;

/** `ESC [ m`, `ESC [ 0 m`, `ESC [ 0;0 m`...: every parameter empty or zero. */
function isPlainReset(sequence: ArrayLike<number>, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (sequence[i] !== 0x30 && sequence[i] !== SEMICOLON) return false;
  return true;
}

/** What a parameter starting with the number `head` sets, as xterm.js applies it (`InputHandler.charAttributes`). */
function attributesSetBy(head: number, subParameters: boolean, empty: boolean): number {
  if (head === 0) return subParameters && !empty ? UNKNOWN : ALL;
  if (head === 1) return BOLD;
  if (head === 2) return FAINT;
  if (head === 22) return BOLD | FAINT;
  if (head === 3 || head === 23) return ITALIC;
  if (head === 4 || head === 21 || head === 24) return UNDERLINE;
  if (head === 5 || head === 25) return BLINK;
  if (head === 7 || head === 27) return INVERSE;
  if (head === 8 || head === 28) return INVISIBLE;
  if (head === 9 || head === 29) return STRIKETHROUGH;
  if (head === 53 || head === 55) return OVERLINE;
  if ((head >= 30 && head <= 39) || (head >= 90 && head <= 97)) return FOREGROUND;
  if ((head >= 40 && head <= 49) || (head >= 100 && head <= 107)) return BACKGROUND;
  if (head === 58 || head === 59) return UNDERLINE_COLOUR;
  return UNKNOWN;
}

/**
 * The parameters of a sequence, an extended colour (`38;5;n`, `38;2;r;g;b`, and 48 and 58
 * alike) kept together with its values as the terminal reads them; `:` sub-parameters stay
 * inside their parameter. Undefined for an extended colour cut short. One pass, no strings:
 * a coloured flood has a few of these on every line.
 */
function parametersOf(sequence: readonly number[], length: number): Parameter[] | undefined {
  const parameters: Parameter[] = [];
  for (let start = 0; start <= length; ) {
    let head = 0;
    let subParameters = false;
    let end = start;
    for (; end < length && sequence[end] !== SEMICOLON; end++) {
      if (sequence[end] === COLON) subParameters = true;
      else if (!subParameters) head = head * 10 + sequence[end]! - 0x30;
    }
    if (!subParameters && (head === 38 || head === 48 || head === 58)) {
      let mode = 0;
      let next = end + 1;
      for (; next < length && sequence[next] !== SEMICOLON; next++) mode = mode * 10 + sequence[next]! - 0x30;
      const values = mode === 5 ? 2 : mode === 2 ? 4 : 0;
      for (let taken = 0; taken < values; taken++) {
        if (end >= length) return undefined;
        for (end++; end < length && sequence[end] !== SEMICOLON; end++);
      }
      if (values === 0) return undefined;
    }
    parameters.push({ bytes: sequence.slice(start, end), sets: attributesSetBy(head, subParameters, end === start) });
    start = end + 1;
  }
  return parameters;
}
