/**
 * Terminal output as plain text, chunk by chunk: escape sequences (CSI, OSC, DCS and the
 * rest) and control characters go, `\r\n` (and the pty's `\r\r\n`) becomes `\n`, and a sequence split between two
 * chunks is still recognised. What a step printed, for the event stream and a pipe.
 */
export class PlainText {
  private state: 'text' | 'escape' | 'csi' | 'string' | 'stringEscape' = 'text';
  private readonly decoder = new TextDecoder('utf-8');
  private pendingCr = false;
  /** Nothing printed on the current line yet: a carriage return here moves nowhere. */
  private atLineStart = true;

  push(bytes: Uint8Array): string {
    return this.strip(this.decoder.decode(bytes, { stream: true }));
  }

  end(): string {
    const rest = this.strip(this.decoder.decode());
    const cr = this.pendingCr ? '\n' : '';
    this.pendingCr = false;
    return rest + cr;
  }

  private strip(text: string): string {
    let out = '';
    for (const char of text) {
      const code = char.codePointAt(0)!;
      switch (this.state) {
        case 'text':
          // Carriage returns in a row are one: a program's CRLF reaches us through the pty as CR CR LF.
          if (this.pendingCr && char === '\r') break;
          if (this.pendingCr) {
            this.pendingCr = false;
            // A lone carriage return (a progress bar redrawing) starts a new line here.
            if (char !== '\n') out += '\n';
            this.atLineStart = true;
          }
          if (code === 0x1b) this.state = 'escape';
          else if (char === '\r') this.pendingCr = !this.atLineStart;
          else if (char === '\n' || char === '\t' || (code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code < 0xa0))) {
            out += char;
            this.atLineStart = char === '\n';
          }
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
}
