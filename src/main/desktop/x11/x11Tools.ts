import { runToolBatch, type BatchedTool, type BatchResult } from '../toolBatch';
import { runTool, type ToolOptions } from '../toolProcess';

/**
 * Runs the X tools against one display, found on `path` (the engine's PATH; absent: this
 * process's); with a `signal`, aborting it kills whichever of them runs.
 */
export class X11Tools {
  constructor(
    readonly display: string,
    readonly path?: string,
    private readonly signal?: AbortSignal,
  ) {}

  /** The same tools, for one request that `signal` can interrupt. */
  until(signal: AbortSignal | undefined): X11Tools {
    return signal ? new X11Tools(this.display, this.path, signal) : this;
  }

  buffer(command: string, args: readonly string[], options: ToolOptions = {}): Promise<Buffer> {
    return runTool(command, args, { signal: this.signal, ...options, env: { ...options.env, ...this.env() } });
  }

  async text(command: string, args: readonly string[], options: ToolOptions = {}): Promise<string> {
    return (await this.buffer(command, args, options)).toString('utf8');
  }

  /** Several tools at once, started as one process: each one's stdout, or why it failed. */
  batch(tools: readonly BatchedTool[], options: { timeoutMs?: number } = {}): Promise<BatchResult[]> {
    return runToolBatch(tools, { signal: this.signal, timeoutMs: options.timeoutMs, env: this.env() });
  }

  private env(): Record<string, string> {
    return { DISPLAY: this.display, ...(this.path !== undefined ? { PATH: this.path } : {}) };
  }
}
