import { app } from 'electron';
import { parseArguments } from '../cli/arguments';
import { main } from '../cli';

/**
 * `tandem web`, `tandem policy check`, `tandem audit verify`, `--help` and `--version` in the
 * packaged app, where the executable is Electron with RunAsNode off: they run here, in the
 * main process, and no window, engine or single-instance lock is ever made for them.
 */
export async function runCommandLine(args: string[], rendererDir: string): Promise<void> {
  app.dock?.hide();
  const serves = parseArguments(args).kind === 'web';
  try {
    await main(args, rendererDir);
  } catch (error) {
    process.stderr.write(`tandem: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
  // `tandem web` keeps serving until Ctrl+C (its own signal handlers end the process).
  if (!serves || process.exitCode) app.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
}
