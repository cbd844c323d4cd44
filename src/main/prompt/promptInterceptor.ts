/**
 * Takes `# ` instructions, `?? ` questions and `!auto ` tasks typed at a shell prompt away from the shell.
 *
 * Keystrokes go to the shell as typed (it echoes and edits them as usual); this class keeps
 * a model of the line typed since the prompt appeared. When Enter arrives while the pane is
 * at a prompt (PROMPT state, nothing submitted since: not a heredoc or continuation line)
 * and the line starts with the prefix, the Enter is replaced by keys that clear the shell's
 * line, and the text goes to the agent instead. It never reaches the shell or its history.
 *
 * Only lines whose content is known exactly are intercepted: after cursor keys, Tab, history
 * recall or input typed ahead while a command ran, the line is "unknown" and Enter passes
 * through — except when what we saw of it looks like an instruction: then Enter goes nowhere
 * and the user is told why (an instruction must never reach the shell or its history).
 * Keys read by a program (a pager, a full-screen editor) are not typed ahead: they never
 * reach the next prompt.
 */

export type PromptShell = 'bash' | 'zsh' | 'fish' | 'other';

export interface PromptRequest {
  kind: 'instruction' | 'question' | 'auto';
  /** The text without its prefix; empty for a bare `??` (ask about the last block) or a bare `!auto` (no task). */
  text: string;
}

/** `!auto <task>` hands the task to an auto run; `\!auto` is the shell's (the line goes to it as typed). */
const AUTO_PREFIX = '!auto';

export interface InterceptResult {
  /** What to write to the shell, in order (typed bytes, line clears, escaped lines). */
  toShell: string;
  requests: PromptRequest[];
  /** Why an Enter was held back from the shell, for the user. */
  refusal?: string;
}

/** Why the line's content is not known exactly. */
type Unsure = 'typed-ahead' | 'edited';

/** Keys that empty the shell's whole edit buffer (emacs bindings, the shells' defaults). */
export function clearLineKeys(shell: PromptShell, lineCount = 1): string {
  switch (shell) {
    case 'zsh':
      // kill-buffer (Ctrl+X Ctrl+K) empties a multi-line buffer too.
      return '\x18\x0b';
    case 'fish':
      // Each line: go to its end, kill back to its start, then join with the line above.
      return Array.from({ length: lineCount }, () => '\x05\x15').join('\x08');
    default:
      // readline: end of line, then unix-line-discard (kills back to the buffer's start).
      return '\x05\x15';
  }
}

const ESC = '\x1b';
/** Typed-ahead text kept (its end): only whether a line may start with a prefix depends on it. */
const MAX_TYPED_AHEAD = 1_000;
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

export class PromptInterceptor {
  private line = '';
  /** Set once the line holds more than we saw typed, or was edited in ways we cannot follow. */
  private unsure: Unsure | undefined;
  /** Text typed ahead (or maybe read by a program) that the shell may have put at the start of this line. */
  private typedAheadLine = '';
  /** Enter went to the shell since the prompt appeared (continuation, heredoc, running command). */
  private submitted = true;
  private inPaste = false;
  /** A partial paste end marker at the end of the previous chunk. */
  private pendingEscape = '';
  /** Printable text typed while the shell was busy and not yet ended by Enter: it lands on the next prompt's line. */
  private typeAhead = '';
  /** An editing key (an arrow, Alt+key: an escape sequence) was typed ahead: the shell's line editor will act on it. */
  private editedAhead = false;
  /**
   * Printable text typed, not ended by Enter, while a program read the keys (a pager): the
   * program took it, unless it exited just before — so it may still start the next line.
   */
  private readByProgram = '';

  constructor(
    private readonly options: {
      shell: () => PromptShell;
      /** `#` with shell integration, `##` without. */
      prefix: () => '#' | '##';
      /** The pane is at a prompt right now (PROMPT state). */
      atPrompt: () => boolean;
      /** A program reads the keys itself (a pager, a full-screen program): they are not typed ahead. */
      programReadsKeys?: () => boolean;
    },
  ) {}

  /**
   * A prompt was drawn. After Enter or Ctrl+C it is a fresh, empty line. Otherwise it is a
   * redraw of the line being edited (bash re-prints PS1, which carries the mark, on Ctrl+L,
   * resize or a bell), and the line model stays as it is.
   */
  promptShown(): void {
    if (!this.submitted) return;
    this.line = '';
    this.unsure = this.typeAhead === '' && !this.editedAhead ? undefined : 'typed-ahead';
    this.typedAheadLine = this.readByProgram + this.typeAhead;
    this.typeAhead = '';
    this.editedAhead = false;
    this.readByProgram = '';
    this.submitted = false;
    this.inPaste = false;
  }

  /** Tandem typed a whole command itself (an approved plan step) and pressed Enter. */
  commandTyped(): void {
    this.line = '';
    this.submitted = true;
  }

  /** The line the user has typed so far, when known exactly. */
  get currentLine(): string | undefined {
    return this.unsure === undefined && !this.submitted ? this.line : undefined;
  }

  input(data: string): InterceptResult {
    const requests: PromptRequest[] = [];
    let out = '';
    let refusal: string | undefined;
    const text = this.pendingEscape + data;
    this.pendingEscape = '';
    if (!this.options.atPrompt() || this.submitted) {
      this.noteTypeAhead(text, this.options.programReadsKeys?.() ?? false);
      return { toShell: text, requests };
    }
    let index = 0;
    while (index < text.length) {
      if (this.inPaste) {
        const end = text.indexOf(PASTE_END, index);
        const chunk = end < 0 ? text.slice(index) : text.slice(index, end);
        // A chunk ending in a prefix of the end marker is held back until it completes.
        const partial = end < 0 ? partialSuffix(chunk, PASTE_END) : 0;
        const body = chunk.slice(0, chunk.length - partial);
        this.line += body.replace(/\r\n?/g, '\n');
        out += body;
        if (end < 0) {
          this.pendingEscape = chunk.slice(chunk.length - partial);
          return { toShell: out, requests, refusal };
        }
        out += PASTE_END;
        this.inPaste = false;
        index = end + PASTE_END.length;
        continue;
      }
      const char = text[index]!;
      if (char === ESC) {
        const sequence = escapeSequenceAt(text, index);
        if (sequence === PASTE_START) this.inPaste = true;
        else this.unsure ??= 'edited';
        out += sequence;
        index += sequence.length;
        continue;
      }
      if (char === '\r' || char === '\n') {
        const decision = this.enter(char);
        out += decision.toShell;
        if (decision.request) requests.push(decision.request);
        index++;
        if (decision.refusal) {
          // The line stays as it is; keys after the refused Enter go on editing it.
          refusal = decision.refusal;
          continue;
        }
        if (this.submitted) {
          // Whatever follows was typed ahead into what the shell does next.
          const rest = text.slice(index);
          this.noteTypeAhead(rest, false);
          return { toShell: out + rest, requests, refusal };
        }
        continue;
      }
      this.edit(char);
      out += char;
      index++;
      if (this.submitted) {
        const rest = text.slice(index);
        this.noteTypeAhead(rest, false);
        return { toShell: out + rest, requests, refusal };
      }
    }
    return { toShell: out, requests, refusal };
  }

  /**
   * Input while the shell is busy goes to the running program, or waits for the next prompt.
   * Text ended by Enter was a line of its own either way; an unfinished rest (printable
   * characters only) would start the next prompt's line, which then is not known exactly.
   * A program that reads keys itself (a pager) takes them, and what was typed ahead before.
   * Ctrl+C ends what came before it too: the terminal driver drops its pending input with the
   * interrupt, and a program reading keys itself drops its line.
   */
  private noteTypeAhead(text: string, readByProgram: boolean): void {
    const lastEnter = Math.max(text.lastIndexOf('\r'), text.lastIndexOf('\n'), text.lastIndexOf('\x03'));
    if (lastEnter >= 0) {
      this.typeAhead = '';
      this.readByProgram = '';
      this.editedAhead = false;
    }
    const tail = lastEnter >= 0 ? text.slice(lastEnter + 1) : text;
    // Escape sequences type no text: CSI and SS3 (arrows in either cursor mode), Alt+key.
    // Control keys neither; the terminal driver or the program takes those (Ctrl+C, Ctrl+D).
    const rest = tail.replace(/\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|[^[O])?|[\x00-\x1f\x7f]/g, '');
    if (readByProgram) {
      this.readByProgram = (this.readByProgram + this.typeAhead + rest).slice(-MAX_TYPED_AHEAD);
      this.typeAhead = '';
      this.editedAhead = false;
    } else {
      this.typeAhead = (this.typeAhead + rest).slice(-MAX_TYPED_AHEAD);
      // Left for the shell, an arrow recalls history or moves the cursor on the next line.
      if (tail.includes('\x1b')) this.editedAhead = true;
    }
  }

  private edit(char: string): void {
    const code = char.charCodeAt(0);
    if (char === '\x7f' || char === '\b') this.line = [...this.line].slice(0, -1).join('');
    else if (char === '\x15') this.line = '';
    else if (char === '\x03') {
      // Ctrl+C at a prompt: the shell drops the line and draws a new prompt.
      this.line = '';
      this.submitted = true;
    }
    else if (char === '\x17') this.line = this.line.replace(/\S*\s*$/, '');
    else if (code < 0x20) this.unsure ??= 'edited';
    else this.line += char;
  }

  private enter(key: string): { toShell: string; request?: PromptRequest; refusal?: string } {
    const line = this.line;
    const unsure = this.unsure;
    const doubtful = unsure ?? (this.typedAheadLine !== '' && !this.requestFor(line.split('\n')) ? 'typed-ahead' : undefined);
    const maybe = doubtful ? this.mayBeRequest(line) : undefined;
    if (doubtful && maybe) return { toShell: '', refusal: this.refusalFor(doubtful, maybe) };
    this.line = '';
    this.unsure = undefined;
    this.typedAheadLine = '';
    if (!unsure) {
      const lines = line.split('\n');
      const request = this.requestFor(lines);
      if (request) return { toShell: clearLineKeys(this.options.shell(), lines.length), request };
      const escaped = this.unescaped(lines);
      if (escaped !== undefined) {
        this.submitted = true;
        return { toShell: clearLineKeys(this.options.shell(), lines.length) + escaped + '\r' };
      }
    }
    this.submitted = true;
    return { toShell: key };
  }

  /**
   * What we saw of an unsure line reads as an instruction or question, with any part of what
   * was typed ahead in front of it (a program may have read the rest).
   */
  private mayBeRequest(line: string): PromptRequest['kind'] | undefined {
    const ahead = this.typedAheadLine;
    const reads = (text: string) => this.requestFor(text.split('\n'))?.kind;
    const whole = reads(line) ?? reads(ahead + line);
    if (whole) return whole;
    // Only a part starting at a `#`, `?` or `!` can read as one (leading blanks are ignored anyway).
    for (let start = ahead.search(REQUEST_START); start >= 0; start = nextRequestChar(ahead, start + 1)) {
      const kind = reads(ahead.slice(start) + line);
      if (kind) return kind;
    }
    return undefined;
  }

  private refusalFor(unsure: Unsure, kind: PromptRequest['kind']): string {
    const prefix = this.options.prefix();
    const why =
      unsure === 'typed-ahead'
        ? 'keys typed while the last command ran may be on it too'
        : 'it was edited with cursor keys, Tab, history or a control key';
    const what = kind === 'auto' ? `an \`${AUTO_PREFIX} \` task` : kind === 'question' ? 'a `?? ` question' : `a \`${prefix} \` instruction`;
    const escape = kind === 'auto' ? `\`\\${AUTO_PREFIX}\` to give it to the shell` : `\`\\${prefix}\` to give the shell a comment`;
    return (
      `Enter was not sent to the shell: this line looks like ${what}, but ${why}, so Tandem cannot be sure ` +
      `what the shell has on it, and it must not land in the shell's history. Press Ctrl+C and type it again ` +
      `(start the line with ${escape}).`
    );
  }

  private requestFor(lines: string[]): PromptRequest | undefined {
    const prefix = this.options.prefix();
    const trimmed = lines.map((line) => line.trimStart());
    const first = trimmed[0] ?? '';
    if (lines.length === 1 && (first === '??' || first.startsWith('?? '))) {
      return { kind: 'question', text: first.slice(2).trim() };
    }
    if (lines.length === 1 && first.startsWith(AUTO_PREFIX) && (first.length === AUTO_PREFIX.length || /\s/.test(first[AUTO_PREFIX.length]!))) {
      return { kind: 'auto', text: first.slice(AUTO_PREFIX.length).trim() };
    }
    const instruction = new RegExp(`^${prefix}(?!#)(\\s|$)`);
    if (!trimmed.every((line) => instruction.test(line))) return undefined;
    const text = trimmed
      .map((line) => line.slice(prefix.length).trim())
      .join('\n')
      .trim();
    return text ? { kind: 'instruction', text } : undefined;
  }

  /** `\#` (or `\##`) lines: the shell gets them with the backslash removed. */
  private unescaped(lines: string[]): string | undefined {
    if (lines.length !== 1) return undefined;
    const prefix = this.options.prefix();
    const line = lines[0]!;
    return line.trimStart().startsWith(`\\${prefix}`) ? line.trimStart().slice(1) : undefined;
  }
}

const REQUEST_START = /[#?!]/;

function nextRequestChar(text: string, from: number): number {
  const found = text.slice(from).search(REQUEST_START);
  return found < 0 ? -1 : from + found;
}

/**
 * The escape sequence starting at `index`. Keyboard input arrives one key per chunk, so a
 * sequence cut off at the end is taken as it is (a lone Esc key must reach vi-mode shells
 * at once, never be held back waiting for more).
 */
function escapeSequenceAt(text: string, index: number): string {
  if (index + 1 >= text.length) return text.slice(index);
  const next = text[index + 1]!;
  if (next === '[' || next === 'O') {
    for (let end = index + 2; end < text.length; end++) {
      const code = text.charCodeAt(end);
      // CSI parameters and intermediates are 0x20–0x3f; the final byte is 0x40–0x7e.
      if (next === 'O' || (code >= 0x40 && code <= 0x7e)) return text.slice(index, end + 1);
    }
    return text.slice(index);
  }
  // Alt+key: ESC followed by one character.
  return text.slice(index, index + 2);
}

/** Length of the longest suffix of `text` that is a proper prefix of `marker`. */
function partialSuffix(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length--) {
    if (marker.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}
