import { runTool, type ToolOptions } from '../toolProcess';

/** Runs the X tools against one display. */
export class X11Tools {
  constructor(readonly display: string) {}

  buffer(command: string, args: readonly string[], options: ToolOptions = {}): Promise<Buffer> {
    return runTool(command, args, { ...options, env: { ...options.env, DISPLAY: this.display } });
  }

  async text(command: string, args: readonly string[], options: ToolOptions = {}): Promise<string> {
    return (await this.buffer(command, args, options)).toString('utf8');
  }
}
