import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TerminalMirror } from '../../src/main/blocks/mirror/terminalMirror';
import { readInternals } from '../../src/main/blocks/mirror/xtermInternals';
import { headlessOf, terminalStateOf } from '../support/terminalStateOf';

const COLS = 20;
const ROWS = 6;
const SCROLLBACK = 30;

/** The terminal a re-attaching client builds: a fresh one, given the snapshot and then the state. */
async function replayed(source: TerminalMirror): Promise<TerminalMirror> {
  const { screen, state } = source.reattachSnapshot();
  const copy = new TerminalMirror(COLS, ROWS, SCROLLBACK);
  copy.write(screen);
  copy.write(state);
  await copy.flushed();
  return copy;
}

async function written(mirror: TerminalMirror, bytes: string): Promise<void> {
  mirror.write(bytes);
  await mirror.flushed();
}

const text = fc.stringMatching(/^[a-z0-9 #`q日]{1,25}$/);
const row = fc.integer({ min: 1, max: ROWS });
const column = fc.integer({ min: 1, max: COLS });
const color = fc.oneof(
  fc.integer({ min: 30, max: 37 }).map(String),
  fc.integer({ min: 90, max: 97 }).map(String),
  fc.integer({ min: 0, max: 255 }).map((index) => `38;5;${index}`),
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([r, g, b]) => `48;2;${r};${g};${b}`),
);
const toggled = (modes: string[]) => fc.tuple(fc.constantFrom(...modes), fc.boolean()).map(([mode, on]) => `\x1b[${mode}${on ? 'h' : 'l'}`);

/** What programs do to a terminal: print, move, scroll, switch screens, set modes and charsets. */
const operation = fc.oneof(
  { weight: 6, arbitrary: text },
  { weight: 2, arbitrary: fc.constantFrom('\r\n', '\n', '\r', '\b', '\t', '\x1bD', '\x1bM', '\x1b[S', '\x1b[T', '\x1b[K', '\x1b[2J', '\x1b[J', '\x1b[L', '\x1b[P') },
  { weight: 2, arbitrary: fc.tuple(row, column).map(([y, x]) => `\x1b[${y};${x}H`) },
  { weight: 2, arbitrary: fc.array(fc.oneof(color, fc.constantFrom('0', '1', '2', '3', '4', '5', '7', '8', '9', '53', '22', '39', '49')), { minLength: 1, maxLength: 3 }).map((params) => `\x1b[${params.join(';')}m`) },
  { weight: 1, arbitrary: fc.tuple(row, row).map(([top, bottom]) => `\x1b[${Math.min(top, bottom)};${Math.max(top, bottom)}r`) },
  { weight: 1, arbitrary: fc.constant('\x1b[r') },
  { weight: 2, arbitrary: toggled(['?1049', '?1047', '?47']) },
  { weight: 3, arbitrary: toggled(['?1', '?66', '?2004', '4', '?6', '?7', '?45', '?1004', '?9', '?1000', '?1002', '?1003', '?1006', '?1016', '?25', '20']) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 6 }).map((shape) => `\x1b[${shape} q`) },
  { weight: 1, arbitrary: fc.constantFrom('\x1b7', '\x1b8', '\x1b[?1048h', '\x1b[?1048l') },
  { weight: 2, arbitrary: fc.constantFrom('\x1b(0', '\x1b(B', '\x1b)0', '\x1b)A', '\x1b*0', '\x0e', '\x0f', '\x1bn') },
);
const program = fc.array(operation, { minLength: 1, maxLength: 40 }).map((parts) => parts.join(''));

/**
 * xterm's DECRC puts the saved charset in use without designating it, so what is in use can
 * differ from every G0–G3 designation; no sequence but DECRC itself recreates that.
 */
function charsetInUseIsDesignated(mirror: TerminalMirror): boolean {
  const terminal = headlessOf(mirror);
  const internals = readInternals(terminal);
  const inUse = (terminal as unknown as { _core: { _charsetService: { charset?: unknown } } })._core._charsetService.charset;
  return inUse === internals.charsets?.[internals.glevel ?? 0];
}

/**
 * A cursor (or saved cursor) waiting to wrap past a blank last cell: xterm gets there only
 * by switching screens at a pending wrap; printing is the one way to recreate a pending
 * wrap, and it leaves the cell printed.
 */
function pendingWrapOverBlank(mirror: TerminalMirror): boolean {
  const terminal = headlessOf(mirror);
  const internals = readInternals(terminal);
  const active = terminal.buffer.active;
  const blankEnd = (buffer: typeof active, row: number) => !buffer.getLine(buffer.baseY + row)?.getCell(COLS - 1)?.getChars();
  const positions = [
    { buffer: active, x: active.cursorX, row: active.cursorY },
    ...[
      { buffer: terminal.buffer.normal, saved: internals.normal },
      { buffer: active, saved: active.type === 'alternate' ? internals.alternate : undefined },
    ].map(({ buffer, saved }) => ({ buffer, x: saved?.savedX ?? 0, row: saved ? Math.max(0, saved.savedY - saved.ybase) : 0 })),
  ];
  return positions.some(({ buffer, x, row }) => x >= COLS && blankEnd(buffer, row));
}

/**
 * With origin mode on, CUP only reaches rows of the scroll region; xterm's DECRC can leave
 * the cursor above or below it, where no sequence but DECRC puts it back.
 */
function outsideOriginRegion(mirror: TerminalMirror): boolean {
  const terminal = headlessOf(mirror);
  if (!terminal.modes.originMode) return false;
  const internals = readInternals(terminal);
  const active = terminal.buffer.active.type === 'alternate' ? internals.alternate : internals.normal;
  const row = terminal.buffer.active.cursorY;
  return active !== undefined && (row < active.scrollTop || row > active.scrollBottom);
}

/**
 * A top screen row marked as continuing a row that CSI S scrolled away: printing marks a row
 * wrapped only by wrapping onto it from the row above, and there is none. The mark means
 * nothing at the top, but a later insert-line (CSI L) moves it down where it joins rows.
 */
function topRowWrapped(mirror: TerminalMirror): boolean {
  const terminal = headlessOf(mirror);
  return [terminal.buffer.normal, terminal.buffer.alternate].some((buffer) => buffer.getLine(buffer.baseY)?.isWrapped === true);
}

/** States no sequence recreates (see each); the properties skip them. */
function unrecreatable(mirror: TerminalMirror): boolean {
  return !charsetInUseIsDesignated(mirror) || pendingWrapOverBlank(mirror) || outsideOriginRegion(mirror) || topRowWrapped(mirror);
}

describe('re-attach snapshot: the terminal state beyond the normal screen', () => {
  it('reads the xterm internals it needs (an xterm upgrade that renames one fails here)', async () => {
    const mirror = new TerminalMirror(COLS, ROWS, SCROLLBACK);
    await written(mirror, '\x1b[2;5r\x1b[?1002h\x1b[?1006h\x1b[?25l\x1b[5 q\x1b)0\x0e\x1b[31m');
    const internals = readInternals(headlessOf(mirror));
    expect(internals).toMatchObject({ mouseProtocol: 'DRAG', mouseEncoding: 'SGR', cursorHidden: true, cursorStyle: 'bar', cursorBlink: true, glevel: 1 });
    expect(internals.normal).toMatchObject({ scrollTop: 1, scrollBottom: 4 });
    expect(internals.alternate).toBeDefined();
    expect(internals.charsets?.[1]?.['q']).toBe('\u2500');
    expect(internals.currentStyle?.getFgColor()).toBe(1);
    mirror.dispose();
  });

  it('a full-screen program: its screen, the shell screen behind it, modes and cursor come back', async () => {
    const source = new TerminalMirror(COLS, ROWS, SCROLLBACK);
    await written(source, '$ vim notes\r\n');
    await written(source, '\x1b[?1049h\x1b[?1h\x1b=\x1b[?2004h\x1b[?1000h\x1b[?1006h\x1b[?1004h\x1b[2;5r\x1b[H\x1b[2J\x1b[1;33mtitle\x1b[0m\x1b[6;1H-- INSERT --\x1b[3;4H\x1b[6 q');
    const copy = await replayed(source);
    expect(terminalStateOf(headlessOf(copy))).toEqual(terminalStateOf(headlessOf(source)));
    expect(copy.isAlternateScreen).toBe(true);
    expect(copy.screenText()).toContain('-- INSERT --');
    // Leaving the program shows the shell's screen with the cursor where the shell left it.
    for (const mirror of [source, copy]) await written(mirror, '\x1b[?1049lback');
    expect(copy.screenText()).toBe('$ vim notes\nback');
    expect(terminalStateOf(headlessOf(copy))).toEqual(terminalStateOf(headlessOf(source)));
    source.dispose();
    copy.dispose();
  });

  it('a cursor waiting to wrap at the last column still wraps the next character', async () => {
    const source = new TerminalMirror(COLS, ROWS, SCROLLBACK);
    await written(source, `\x1b[32m${'x'.repeat(COLS)}\x1b[0m`);
    const copy = await replayed(source);
    for (const mirror of [source, copy]) await written(mirror, 'next');
    expect(copy.screenText()).toBe(`${'x'.repeat(COLS)}\nnext`);
    expect(terminalStateOf(headlessOf(copy))).toEqual(terminalStateOf(headlessOf(source)));
    source.dispose();
    copy.dispose();
  });

  it('an escape sequence cut in two by the snapshot is completed by the live output, not printed', async () => {
    const source = new TerminalMirror(COLS, ROWS, SCROLLBACK);
    await written(source, 'plain \x1b[3');
    const copy = await replayed(source);
    for (const mirror of [source, copy]) await written(mirror, '1mred\x1b]0;ti');
    const again = await replayed(copy);
    for (const mirror of [source, again]) await written(mirror, 'tle\x07 done');
    expect(again.screenText()).toBe('plain red done');
    expect(terminalStateOf(headlessOf(again))).toEqual(terminalStateOf(headlessOf(source)));
    for (const mirror of [source, copy, again]) mirror.dispose();
  });

  it('hands on only the part of a sequence parsed when the snapshot is taken, not bytes written after', async () => {
    const source = new TerminalMirror(COLS, ROWS, SCROLLBACK);
    source.write('cut:\x1b[3');
    let snapshot: ReturnType<TerminalMirror['reattachSnapshot']> | undefined;
    // As the mirror thread does: answered once what came before is parsed, while more is queued.
    source.afterPendingWrites(() => (snapshot = source.reattachSnapshot()));
    source.write('1mred\x1b[0m');
    await source.flushed();
    expect(snapshot!.state.endsWith('\x1b[3')).toBe(true);
    const copy = new TerminalMirror(COLS, ROWS, SCROLLBACK);
    await written(copy, snapshot!.screen + snapshot!.state + '1mred\x1b[0m');
    expect(copy.screenText()).toBe('cut:red');
    expect(terminalStateOf(headlessOf(copy))).toEqual(terminalStateOf(headlessOf(source)));
    source.dispose();
    copy.dispose();
  });

  it("keeps the alternate screen's saved cursor while the normal one is up: a program that comes back and restores gets it (found by the property below)", async () => {
    const source = new TerminalMirror(COLS, ROWS, SCROLLBACK);
    // Line drawing in G0, saved twice on the way in (the second time on the alternate screen), then back to the normal one.
    await written(source, '\x1b(0\x1b[?1049h\x1b[2;3H\x1b[?1049h\x1b[?1049l');
    const copy = await replayed(source);
    expect(terminalStateOf(headlessOf(copy))).toEqual(terminalStateOf(headlessOf(source)));
    // Back on the alternate screen without saving there, then restoring what was saved there before.
    for (const mirror of [source, copy]) await written(mirror, '\x1b(B\x1b[?1047h\x1b[?1048lq');
    expect(terminalStateOf(headlessOf(copy))).toEqual(terminalStateOf(headlessOf(source)));
    source.dispose();
    copy.dispose();
  });

  it("keeps an alternate-screen cursor saved waiting to wrap at the last column (the screen is cleared when it comes back, so any last cell will do)", async () => {
    const source = new TerminalMirror(COLS, ROWS, SCROLLBACK);
    await written(source, `\x1b[?1049h${'x'.repeat(COLS)}\x1b7\x1b[?1049l`);
    const copy = await replayed(source);
    expect(terminalStateOf(headlessOf(copy))).toEqual(terminalStateOf(headlessOf(source)));
    for (const mirror of [source, copy]) await written(mirror, '\x1b[?1047h\x1b[?1048lwrapped');
    expect(terminalStateOf(headlessOf(copy))).toEqual(terminalStateOf(headlessOf(source)));
    source.dispose();
    copy.dispose();
  });

  it('a snapshot anywhere in program output, even inside a sequence: replayed plus the rest equals the source', async () => {
    await fc.assert(
      fc.asyncProperty(program, program, fc.nat(), async (first, second, at) => {
        const whole = first + second;
        const cut = at % (whole.length + 1);
        const source = new TerminalMirror(COLS, ROWS, SCROLLBACK);
        try {
          await written(source, whole.slice(0, cut));
          fc.pre(!unrecreatable(source) && !(whole.includes('\x1b[?7l') && whole.includes('日')));
          const copy = await replayed(source);
          try {
            for (const mirror of [source, copy]) await written(mirror, whole.slice(cut));
            expect(terminalStateOf(headlessOf(copy))).toEqual(terminalStateOf(headlessOf(source)));
          } finally {
            copy.dispose();
          }
        } finally {
          source.dispose();
        }
      }),
      { numRuns: 200 },
    );
  }, 180_000);

  it('any sequence of program output: the replayed terminal equals the source, and stays equal under the same further output', async () => {
    await fc.assert(
      fc.asyncProperty(program, program, async (before, after) => {
        const source = new TerminalMirror(COLS, ROWS, SCROLLBACK);
        try {
          await written(source, before);
          fc.pre(!unrecreatable(source));
          // Not covered: a wide character at the right margin with autowrap off, where xterm
          // keeps cells no printing recreates (no program relies on it).
          fc.pre(!(`${before}${after}`.includes('\x1b[?7l') && `${before}${after}`.includes('日')));
          const copy = await replayed(source);
          try {
            expect(terminalStateOf(headlessOf(copy))).toEqual(terminalStateOf(headlessOf(source)));
            for (const mirror of [source, copy]) await written(mirror, `${after}\x1b[?1049lend`);
            expect(terminalStateOf(headlessOf(copy))).toEqual(terminalStateOf(headlessOf(source)));
          } finally {
            copy.dispose();
          }
        } finally {
          source.dispose();
        }
      }),
      { numRuns: 300 },
    );
    // A few seconds on an idle machine; far longer with both cores busy.
  }, 180_000);
});
