import type { AgentStreamEvent, StreamEventOf } from '../agentStream';
import type { EventSink, StreamWriter } from './eventSink';

const LEVEL_COLOR = { green: 32, yellow: 33, red: 31 } as const;

/**
 * The run as readable text on a terminal: the answer as it streams, each step with its level,
 * command, output and exit code, and what went wrong. Colours unless NO_COLOR is set.
 * Approval prompts are written by the terminal approver between these lines.
 */
export class TerminalSink implements EventSink {
  /** The line under the cursor has text (a streaming answer without its line break yet). */
  private midLine = false;
  private readonly streamed = new Set<string>();
  /** Errors already shown: the result's reason is often the same words. */
  private readonly errorsShown = new Set<string>();

  constructor(
    private readonly out: StreamWriter,
    private readonly color: boolean,
  ) {}

  event(event: AgentStreamEvent): void {
    switch (event.type) {
      case 'session':
        this.line(this.dim(`tandem agent · ${event.model} (${event.backend}) · ${event.shell} in ${event.cwd} · approvals: ${event.approve}${event.auto ? ' · auto' : ''}`));
        return;
      case 'delta':
        this.streamed.add(event.message_id);
        this.write(event.text);
        this.midLine = !event.text.endsWith('\n');
        return;
      case 'message':
        if (!this.streamed.has(event.message_id)) this.write(event.text);
        this.endLine();
        if (event.interrupted) this.line(this.dim(`(${event.interrupted})`));
        return;
      case 'step':
        this.step(event);
        return;
      case 'output':
        this.write(event.text.replace(/^(.*)$/gm, (line, _text, offset: number) => (line || offset < event.text.length - 1 ? this.dim(`  │ ${line}`) : '')));
        return;
      case 'file_change':
        this.line(this.diff(event.diff));
        return;
      case 'retry':
        this.line(this.paint(33, `${event.reason} Retrying in ${event.seconds_left} s (attempt ${event.attempt} of ${event.attempts}).`));
        return;
      case 'fallback':
        this.line(this.paint(33, `${event.reason} Falling back to ${event.to.backend} ${event.to.model}.`));
        return;
      case 'error':
        this.errorsShown.add(event.message);
        this.line(this.paint(31, `Error: ${event.message}`));
        return;
      case 'notice':
        this.line(this.paint(event.level === 'error' ? 31 : event.level === 'warning' ? 33 : 2, event.message));
        return;
      case 'result':
        if (event.is_error && event.reason && !this.errorsShown.has(event.reason)) this.line(this.paint(31, `✗ ${event.reason}`));
        return;
      default:
        return;
    }
  }

  close(): Promise<void> {
    this.endLine();
    return this.out.close();
  }

  /** For the approver: makes sure its prompt starts on a line of its own. */
  beforePrompt(): void {
    this.endLine();
  }

  level(level: 'green' | 'yellow' | 'red' | undefined): string {
    return level ? this.paint(LEVEL_COLOR[level], `[${level.toUpperCase()}]`) : '[?]';
  }

  paint(code: number, text: string): string {
    return this.color ? `\x1b[${code}m${text}\x1b[0m` : text;
  }

  private step(event: StreamEventOf<'step'>): void {
    switch (event.phase) {
      case 'proposed':
        this.line(`${this.level(event.level)} ${this.paint(1, event.command)}${event.purpose ? this.dim(`  — ${event.purpose}`) : ''}`);
        if (event.reasons.length) this.line(this.dim(`  ${event.reasons.join('; ')}`));
        return;
      case 'decided':
        if (event.verdict === 'allowed') this.line(this.dim(`  allowed by ${event.decided_by}: ${event.rule}`));
        else this.line(this.paint(event.verdict === 'denied' ? 31 : 33, `  ${event.verdict} (${event.detail ?? event.rule})`));
        return;
      case 'started':
        return;
      case 'finished':
        if (event.status === 'done' || event.status === 'failed') {
          const seconds = event.duration_ms !== undefined ? ` · ${(event.duration_ms / 1000).toFixed(1)} s` : '';
          const code = event.exit_code !== undefined ? `exit ${event.exit_code}` : event.status;
          this.line(event.status === 'done' ? this.paint(32, `  ✓ ${code}${seconds}`) : this.paint(31, `  ✗ ${code}${seconds}${event.detail ? ` — ${event.detail}` : ''}`));
        }
        return;
    }
  }

  private diff(diff: string): string {
    return diff
      .split('\n')
      .map((line) => (line.startsWith('+') && !line.startsWith('+++') ? this.paint(32, line) : line.startsWith('-') && !line.startsWith('---') ? this.paint(31, line) : this.dim(line)))
      .join('\n');
  }

  private dim(text: string): string {
    return this.paint(2, text);
  }

  private line(text: string): void {
    this.endLine();
    this.write(`${text}\n`);
  }

  private endLine(): void {
    if (this.midLine) this.write('\n');
    this.midLine = false;
  }

  private write(text: string): void {
    if (!text) return;
    this.out.write(text);
    this.midLine = !text.endsWith('\n');
  }
}
