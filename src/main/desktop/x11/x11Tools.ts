import { DesktopError } from '../desktopError';
import { runToolBatch, type BatchedTool } from '../toolBatch';
import { runTool, type ToolOptions } from '../toolProcess';

/** Runs the X tools against one display; with a `signal`, aborting it kills whichever of them runs. */
export class X11Tools {
  constructor(
    readonly display: string,
    private readonly signal?: AbortSignal,
  ) {}

  /** The same tools, for one request that `signal` can interrupt. */
  until(signal: AbortSignal | undefined): X11Tools {
    return signal ? new X11Tools(this.display, signal) : this;
  }

  buffer(command: string, args: readonly string[], options: ToolOptions = {}): Promise<Buffer> {
    return runTool(command, args, { signal: this.signal, ...options, env: { ...options.env, DISPLAY: this.display } });
  }

  async text(command: string, args: readonly string[], options: ToolOptions = {}): Promise<string> {
    return (await this.buffer(command, args, options)).toString('utf8');
  }

  /** Several tools at once, started as one process: each one's stdout as text, or why it failed. */
  async texts(tools: readonly BatchedTool[]): Promise<Array<string | DesktopError>> {
    const results = await runToolBatch(tools, { signal: this.signal, env: { DISPLAY: this.display } });
    return results.map((result) => (result instanceof DesktopError ? result : result.toString('utf8')));
  }
}
