import { spawn } from 'node:child_process';
import { Engine } from '../engine/engine';
import { WebServer } from '../server/webServer';

export interface WebCommandOptions {
  port: number;
  shell?: string;
  open: boolean;
  version: string;
  rendererDir: string;
}

/** `tandem web`: the engine and UI on 127.0.0.1 until Ctrl+C; panes survive closed tabs. */
export async function runWebCommand(options: WebCommandOptions): Promise<void> {
  const engine = new Engine({ version: options.version, shellOverride: options.shell });
  const server = new WebServer({ engine, rendererDir: options.rendererDir, port: options.port });
  try {
    await server.listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EADDRINUSE' ? `port ${options.port} is already in use (try --port 0)` : (error as Error).message;
    process.stderr.write(`tandem web: cannot listen on 127.0.0.1: ${reason}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`Tandem is running at ${server.url}\n`);
  if (options.open) openInBrowser(server.url);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await engine.shutdown().catch((error: Error) => process.stderr.write(`tandem: could not save the session: ${error.message}\n`));
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGHUP', () => void stop());
}

function openInBrowser(url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No browser opener here; the printed URL is enough.
  }
}
