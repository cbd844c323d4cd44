import type { AgentStreamEvent } from '../agentStream';

/** Where a run's events go: NDJSON lines, readable text on a terminal, or only the final answer. */
export interface EventSink {
  event(event: AgentStreamEvent): void;
  /** Resolves once everything written has been handed to the OS (or the reader went away). */
  close(): Promise<void>;
}

/**
 * Writes to a stream that may close under us (`tandem agent --json | head -1`, an `ssh -T`
 * whose client went away): after EPIPE nothing more is written and `gone` is called once —
 * the run then stops, as a program does at SIGPIPE.
 */
export class StreamWriter {
  private broken = false;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    gone: () => void = () => undefined,
  ) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
      if (this.broken) return;
      this.broken = true;
      gone();
    });
  }

  write(text: string): void {
    if (!this.broken && text) this.stream.write(text);
  }

  close(): Promise<void> {
    if (this.broken) return Promise.resolve();
    return new Promise((resolve) => {
      // stdout is not ended (the process may still print a usage line); a write of nothing resolves once the rest is flushed.
      if (!this.stream.write('', () => resolve())) this.stream.once('drain', () => resolve());
    });
  }
}

/** One JSON object per line, written as each event happens. */
export class NdjsonSink implements EventSink {
  constructor(private readonly out: StreamWriter) {}

  event(event: AgentStreamEvent): void {
    this.out.write(`${JSON.stringify(event)}\n`);
  }

  close(): Promise<void> {
    return this.out.close();
  }
}

/** `--quiet`: only the final answer, for `$(tandem agent -c …)`; what went wrong goes to stderr. */
export class QuietSink implements EventSink {
  /** Errors already said: the result's reason is often the same words. */
  private readonly said = new Set<string>();

  constructor(
    private readonly out: StreamWriter,
    private readonly err: StreamWriter,
  ) {}

  event(event: AgentStreamEvent): void {
    if (event.type === 'result') {
      if (event.result) this.out.write(event.result.endsWith('\n') ? event.result : `${event.result}\n`);
      if (event.is_error && event.reason && !this.said.has(event.reason)) this.err.write(`tandem agent: ${event.reason}\n`);
    } else if (event.type === 'error') {
      this.said.add(event.message);
      this.err.write(`tandem agent: ${event.message}\n`);
    }
  }

  close(): Promise<void> {
    return this.out.close();
  }
}
