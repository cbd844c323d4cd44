import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileOnFirstCall } from '../engine/baselineCompile';
import { Engine } from '../engine/engine';
import { selfCommand } from '../agent/children/selfCommand';
import { WebServer } from '../server/webServer';
import { listenForSshTabs } from '../ssh/sshTabEndpoint';

export interface WebCommandOptions {
  port: number;
  shell?: string;
  open: boolean;
  /** Print the engine log to stderr as it is written. */
  verbose?: boolean;
  version: string;
  rendererDir: string;
}

/** `tandem web`: the engine and UI on 127.0.0.1 until Ctrl+C; panes survive closed tabs. */
export async function runWebCommand(options: WebCommandOptions): Promise<void> {
  compileOnFirstCall();
  const engine = new Engine({
    version: options.version,
    shellOverride: options.shell,
    selfCommand: selfCommand(),
    echoLog: options.verbose ? (line) => process.stderr.write(`tandem log: ${line}`) : undefined,
  });
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
  // `tandem ssh` opens its tab here; without the socket it connects in its own terminal.
  const sshTabs = await listenForSshTabs(engine.paths.stateDir, engine).catch((error: unknown) => {
    engine.log.warning('engine', 'tandem ssh cannot reach this engine', error);
    return null;
  });
  if (options.verbose) process.stderr.write(`tandem: the engine log is ${engine.log.file}\n`);
  if (options.open) openInBrowser(server.url);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    sshTabs?.close();
    await engine.shutdown().catch((error: Error) => process.stderr.write(`tandem: could not save the session: ${error.message}\n`));
    await server.close();
    process.exit(0);
  };
  // Whatever goes wrong in one request or pane, the other shells keep running.
  process.on('unhandledRejection', (error) => {
    process.stderr.write(`tandem: ${String(error)}\n`);
    engine.log.error('engine', 'an unhandled rejection', error);
  });
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGHUP', () => void stop());
}

/**
 * Opens the page without putting the token on a command line (readable by every local user
 * through /proc): the browser gets a private temp file that redirects to the tokened URL.
 */
function openInBrowser(url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const dir = mkdtempSync(join(tmpdir(), 'tandem-open-'));
    const page = join(dir, 'open.html');
    const escaped = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    writeFileSync(page, `<!doctype html><meta http-equiv="refresh" content="0;url=${escaped}"><title>Tandem</title>\n`, { mode: 0o600 });
    const child = spawn(opener, [pathToFileURL(page).href], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
    // Long enough for a browser to start and read it; then the token leaves the disk.
    setTimeout(() => rmSync(dir, { recursive: true, force: true }), 60_000).unref();
  } catch {
    // No browser opener here; the printed URL is enough.
  }
}
