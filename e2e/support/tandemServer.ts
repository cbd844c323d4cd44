import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { makeTestHome, removeTestHome, testHomeEnv } from '../../test/support/testHome';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface TandemServer {
  url: string;
  origin: string;
  port: number;
  token: string;
  home: string;
  process: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface StartOptions {
  shell?: string;
  /** Reuse a home (and with it config and saved session) from an earlier server. */
  home?: string;
  configToml?: string;
  port?: number;
  /** Added to the test environment (ANTHROPIC_BASE_URL for the scripted model, ...). */
  env?: NodeJS.ProcessEnv;
}

/** A fresh home for a test: quiet startup files, so the prompt is predictable. */
export function makeHome(): string {
  return makeTestHome('tandem-e2e-');
}

/** Writes the user's `~/.config/tandem/config.toml` in `home`. */
export function writeConfig(home: string, configToml: string): void {
  mkdirSync(join(home, '.config/tandem'), { recursive: true });
  writeFileSync(join(home, '.config/tandem/config.toml'), configToml);
}

/** A fresh home whose config.toml holds `configToml`. */
export function makeHomeWithConfig(configToml: string): string {
  const home = makeHome();
  writeConfig(home, configToml);
  return home;
}

/** Starts `tandem web` exactly as a user would, with its own HOME and XDG dirs. */
export async function startTandem(options: StartOptions = {}): Promise<TandemServer> {
  const home = options.home ?? makeHome();
  if (options.configToml !== undefined) writeConfig(home, options.configToml);
  const args = [join(root, 'bin/tandem.js'), 'web', '--port', String(options.port ?? 0), '--no-open'];
  if (options.shell) args.push('--shell', options.shell);
  const env = { ...testHomeEnv(home), ...options.env };
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (data) => (output += data));
  child.stderr!.on('data', (data) => (output += data));
  const url = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`tandem web did not start:\n${output}`)), 20_000);
    const check = () => {
      const match = /Tandem is running at (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => reject(new Error(`tandem web exited with ${code}:\n${output}`)));
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    port: Number(parsed.port),
    token: parsed.searchParams.get('token') ?? '',
    home,
    process: child,
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill(signal);
      await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

export function removeHome(home: string): void {
  removeTestHome(home);
}
