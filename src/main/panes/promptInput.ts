import { PromptInterceptor, clearLineKeys, type PromptRequest, type PromptShell } from '../prompt/promptInterceptor';

export interface PromptInputOptions {
  shell: () => PromptShell;
  /** Our integration is on: `# ` is the prefix (else `## `). */
  integration: () => boolean;
  /** The pane is at a prompt with a live shell (PROMPT state). */
  atPrompt: () => boolean;
  /** A program reads the keys itself (a pager, a full-screen program). */
  programReadsKeys: () => boolean;
  /** Where `# ` instructions and `?? ` questions go; without it nothing is taken from the shell. */
  requested?: (request: PromptRequest) => void;
}

/**
 * The keys on their way to a pane's shell. At a prompt, a `# ` instruction or `?? ` question
 * is taken away from the shell and handed to the agent; elsewhere keys pass through while
 * the line model follows what may be typed ahead into the next prompt.
 */
export class PromptInput {
  private readonly interceptor: PromptInterceptor;
  private readonly decoder = new TextDecoder();

  constructor(private readonly options: PromptInputOptions) {
    this.interceptor = new PromptInterceptor({
      shell: options.shell,
      prefix: () => (options.integration() ? '#' : '##'),
      atPrompt: () => options.atPrompt() && options.requested !== undefined,
      programReadsKeys: options.programReadsKeys,
    });
  }

  /**
   * The user's keys: what goes on to the shell, the requests taken from it (send them after
   * the keys), and why an Enter was held back, if one was.
   */
  fromUser(data: Uint8Array | string): { toShell: Uint8Array | string; requests: PromptRequest[]; refusal?: string } {
    if (this.options.requested && this.options.atPrompt()) {
      const text = typeof data === 'string' ? data : this.decoder.decode(data, { stream: true });
      return this.interceptor.input(text);
    }
    this.interceptor.input(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
    return { toShell: data, requests: [] };
  }

  /** Hands requests to the agent. */
  dispatch(requests: PromptRequest[]): void {
    for (const request of requests) this.options.requested?.(request);
  }

  /**
   * The keys that type a whole command at the prompt (`line`) and press Enter (`enter`), for
   * a plan step. A half-typed line is cleared first; the shells keep it in their kill ring
   * (Ctrl+Y). A command whose newlines the shell would take as Enter (no bracketed paste) is
   * all in `enter`, since its first line would run as soon as it is typed.
   */
  commandKeys(command: string, bracketedPaste: boolean): { line: string; enter: string } {
    const pasted = command.includes('\n') && bracketedPaste;
    const body = pasted ? `\x1b[200~${command}\x1b[201~` : command;
    // Clearing an empty line would ring the bell (and make bash redraw its prompt).
    const clear = this.interceptor.currentLine === '' ? '' : clearLineKeys(this.options.shell());
    this.interceptor.commandTyped();
    const line = clear + body;
    return pasted || !/[\r\n]/.test(command) ? { line, enter: '\r' } : { line: '', enter: `${line}\r` };
  }

  /** A prompt was drawn. */
  promptShown(): void {
    this.interceptor.promptShown();
  }
}
