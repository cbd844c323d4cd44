import type { Terminal as HeadlessTerminal } from '@xterm/headless';

/**
 * State of a headless xterm that its public API does not expose, read from its core. Every
 * field is optional: an xterm version that renamed one restores a little less, it does not
 * break (test/unit/terminalState.test.ts fails loudly if a name goes missing).
 */
export interface BufferInternals {
  /** The cursor's column; equal to the column count while a wrap is pending. */
  x: number;
  y: number;
  /** The buffer row shown at the top of the screen. */
  ybase: number;
  /** Scroll region (DECSTBM), rows of the screen from 0, both inclusive. */
  scrollTop: number;
  scrollBottom: number;
  /** The position saved by DECSC (ESC 7), the row counted from the top of the buffer. */
  savedX: number;
  savedY: number;
  /** The colours and attributes DECSC saved (DECRC restores them). */
  savedStyle?: CellStyle;
  /** The charset in use when DECSC saved (DECRC puts it back in use). */
  savedCharset?: Charset;
}

/** A G0–G3 charset: the characters it maps (undefined is US ASCII). */
export type Charset = Record<string, string> | undefined;

/** Colours and flags of a cell or of the attributes text is printed with (xterm's IAttributeData shape). */
export interface CellStyle {
  getFgColorMode(): number;
  getFgColor(): number;
  getBgColorMode(): number;
  getBgColor(): number;
  isFgRGB(): boolean;
  isFgPalette(): boolean;
  isBgRGB(): boolean;
  isBgPalette(): boolean;
  isBold(): number;
  isDim(): number;
  isItalic(): number;
  isUnderline(): number;
  isBlink(): number;
  isInverse(): number;
  isInvisible(): number;
  isStrikethrough(): number;
  isOverline(): number;
}

export interface CoreInternals {
  normal?: BufferInternals;
  alternate?: BufferInternals;
  /** 'NONE' | 'X10' | 'VT200' | 'DRAG' | 'ANY' */
  mouseProtocol?: string;
  /** 'DEFAULT' | 'SGR' | 'SGR_PIXELS' */
  mouseEncoding?: string;
  cursorHidden?: boolean;
  /** Set by DECSCUSR; undefined while the terminal's own setting applies. */
  cursorStyle?: 'block' | 'underline' | 'bar';
  cursorBlink?: boolean;
  /** G0–G3. */
  charsets?: Charset[];
  /** Which of G0–G3 is shifted in (SI/SO, LS2, LS3). */
  glevel?: number;
  /** The attributes the next printed character gets (SGR). */
  currentStyle?: CellStyle;
}

interface RawBuffer {
  x?: unknown;
  y?: unknown;
  ybase?: unknown;
  scrollTop?: unknown;
  scrollBottom?: unknown;
  savedX?: unknown;
  savedY?: unknown;
  savedCurAttrData?: CellStyle;
  savedCharset?: Charset;
}

interface RawCore {
  _bufferService?: { buffers?: { normal?: RawBuffer; alt?: RawBuffer } };
  buffer?: RawBuffer;
  coreMouseService?: { activeProtocol?: unknown; activeEncoding?: unknown };
  coreService?: { isCursorHidden?: unknown; decPrivateModes?: { cursorStyle?: unknown; cursorBlink?: unknown } };
  _charsetService?: { glevel?: unknown; _charsets?: unknown };
  _inputHandler?: { _curAttrData?: CellStyle };
}

export function readInternals(terminal: HeadlessTerminal): CoreInternals {
  const core = (terminal as unknown as { _core?: RawCore })._core;
  if (!core) return {};
  const buffers = core._bufferService?.buffers;
  const modes = core.coreService?.decPrivateModes;
  const charsets = core._charsetService?._charsets;
  const style = modes?.cursorStyle;
  return {
    normal: bufferOf(buffers?.normal),
    alternate: bufferOf(buffers?.alt),
    mouseProtocol: stringOr(core.coreMouseService?.activeProtocol),
    mouseEncoding: stringOr(core.coreMouseService?.activeEncoding),
    cursorHidden: booleanOr(core.coreService?.isCursorHidden),
    cursorStyle: style === 'block' || style === 'underline' || style === 'bar' ? style : undefined,
    cursorBlink: booleanOr(modes?.cursorBlink),
    charsets: Array.isArray(charsets) ? (charsets as Charset[]) : undefined,
    glevel: numberOr(core._charsetService?.glevel),
    currentStyle: core._inputHandler?._curAttrData,
  };
}

/** The parser is between sequences (not inside an escape sequence); true if that cannot be read. */
export function parserInGround(terminal: HeadlessTerminal): boolean {
  const parser = (terminal as unknown as { _core?: { _inputHandler?: { _parser?: { currentState?: unknown } } } })._core?._inputHandler?._parser;
  // ParserState.GROUND
  return parser?.currentState === undefined || parser.currentState === 0;
}

/** The scroll region of the active buffer, or undefined if it cannot be read. */
export function activeScrollRegion(terminal: HeadlessTerminal): { top: number; bottom: number } | undefined {
  const buffer = (terminal as unknown as { _core?: RawCore })._core?.buffer;
  const top = numberOr(buffer?.scrollTop);
  const bottom = numberOr(buffer?.scrollBottom);
  return top === undefined || bottom === undefined ? undefined : { top, bottom };
}

function bufferOf(raw: RawBuffer | undefined): BufferInternals | undefined {
  if (!raw) return undefined;
  const fields = [raw.x, raw.y, raw.ybase, raw.scrollTop, raw.scrollBottom, raw.savedX, raw.savedY];
  if (!fields.every((field) => typeof field === 'number')) return undefined;
  const [x, y, ybase, scrollTop, scrollBottom, savedX, savedY] = fields as number[];
  return {
    x: x!,
    y: y!,
    ybase: ybase!,
    scrollTop: scrollTop!,
    scrollBottom: scrollBottom!,
    savedX: savedX!,
    savedY: savedY!,
    savedStyle: raw.savedCurAttrData,
    savedCharset: raw.savedCharset,
  };
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function booleanOr(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}
