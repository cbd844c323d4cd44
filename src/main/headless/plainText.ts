/**
 * Terminal output as plain text, line by line, as a terminal would leave it: escape sequences
 * (CSI, OSC, DCS and the rest) and control characters go, a carriage return goes back to the
 * start of the line so what follows overwrites it (a progress bar's redraws leave its last
 * state; the pty's CR CR LF is one line end), backspace steps back, a line longer than the
 * pane wraps, and trailing blanks are trimmed. A sequence split between two chunks is still
 * recognised. What a step printed, for the event stream and a pipe: `push` returns the lines
 * it completed, `end` the rest.
 *
 * zsh's PROMPT_SP mark (`%` and a line of blanks, then CR, blank, CR before the next prompt)
 * leaves nothing here, as on a screen, unless the output did not end in a line break.
 */
export class PlainText {
  private state: 'text' | 'escape' | 'csi' | 'string' | 'stringEscape' = 'text';
  private readonly decoder = new TextDecoder('utf-8');
  /** The line being written: one entry per column ('' for a column a tab jumped over). */
  private line: string[] = [];
  private col = 0;

  constructor(private readonly cols = Number.POSITIVE_INFINITY) {}

  push(bytes: Uint8Array): string {
    return this.strip(this.decoder.decode(bytes, { stream: true }));
  }

  end(): string {
    const rest = this.strip(this.decoder.decode());
    const last = this.text();
    this.line = [];
    this.col = 0;
    return rest + (last.trim() ? last : '');
  }

  private strip(text: string): string {
    let out = '';
    for (const char of text) {
      const code = char.codePointAt(0)!;
      switch (this.state) {
        case 'text':
          if (code === 0x1b) this.state = 'escape';
          else if (char === '\n') out += this.newLine();
          else if (char === '\r') this.col = 0;
          else if (char === '\b') this.col = Math.max(0, this.col - 1);
          else if (char === '\t') out += this.tab();
          else if (code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code < 0xa0)) out += this.put(char);
          else if (code === 0x9b) this.state = 'csi';
          else if (code === 0x9d || code === 0x90) this.state = 'string';
          break;
        case 'escape':
          // ESC [ → CSI; ESC ] / P / X / ^ / _ → a string ended by BEL or ST; anything else is a two-character sequence.
          if (char === '[') this.state = 'csi';
          else if (char === ']' || char === 'P' || char === 'X' || char === '^' || char === '_') this.state = 'string';
          else if (code >= 0x20 && code <= 0x2f) this.state = 'escape';
          else this.state = 'text';
          break;
        case 'csi':
          if (code >= 0x40 && code <= 0x7e) this.state = 'text';
          break;
        case 'string':
          if (code === 0x07 || code === 0x9c) this.state = 'text';
          else if (code === 0x1b) this.state = 'stringEscape';
          break;
        case 'stringEscape':
          this.state = char === '\\' ? 'text' : 'string';
          break;
      }
    }
    return out;
  }

  /** A printable character at the cursor (overwriting what a carriage return went back over); past the last column the line wraps. */
  private put(char: string): string {
    let wrapped = '';
    if (this.col >= this.cols) wrapped = this.newLine();
    while (this.line.length < this.col) this.line.push(' ');
    this.line[this.col++] = char;
    return wrapped;
  }

  private tab(): string {
    const stop = Math.min(Math.floor(this.col / 8 + 1) * 8, this.cols);
    if (stop <= this.col) return '';
    while (this.line.length < this.col) this.line.push(' ');
    this.line[this.col] = '\t';
    for (let column = this.col + 1; column < stop; column++) this.line[column] = '';
    this.col = stop;
    return '';
  }

  private newLine(): string {
    const text = this.text();
    this.line = [];
    this.col = 0;
    return `${text}\n`;
  }

  private text(): string {
    return this.line.join('').replace(/[ \t]+$/, '');
  }
}
