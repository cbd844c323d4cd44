// Starts `node bin/tandem.js web --port 0 --no-open` in a throwaway HOME (XDG dirs inside,
// a .bashrc with PS1='$ ') and hands back its URL and pid.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testHome } from './engineShared.js';
import { ROOT } from './root.js';

export function requireBuild(what = 'the Tandem rows') {
  if (!existsSync(join(ROOT, 'out/main/cli.js'))) {
    throw new Error(`out/main/cli.js is missing; ${what} need a build (npm run build, or npm run bench)`);
  }
}

export function requireRendererBuild() {
  requireBuild();
  if (!existsSync(join(ROOT, 'out/renderer/index.html'))) {
    throw new Error('out/renderer/index.html is missing; the UI rows need the renderer built (npm run build)');
  }
}

/** The tests' throwaway HOME (test/support/testHome.ts), with the bench's prompt and settings; `config`: more of config.toml. */
export function makeHome({ scrollback = 10_000, webgl = false, config = '' } = {}) {
  const home = testHome.makeTestHome('tandem-bench-home-');
  // The suites read the prompt as `$ `; no history file, so runs do not feed each other.
  writeFileSync(join(home, '.bashrc'), "PS1='$ '\nHISTFILE=/dev/null\n");
  mkdirSync(join(home, '.config/tandem'), { recursive: true });
  // The DOM renderer, like the reference page (the bench Chromium runs with --disable-gpu),
  // unless `webgl` (SwiftShader); no session restore, so every run starts from an empty layout.
  writeFileSync(
    join(home, '.config/tandem/config.toml'),
    `[terminal]\nwebgl = ${webgl}\ncursor_blink = false\nscrollback = ${scrollback}\n\n[session]\nrestore = false\n${config}`,
  );
  const env = {
    ...testHome.testHomeEnv(home),
    TERM: 'xterm-256color',
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_RUNTIME_DIR: join(home, '.run'),
  };
  mkdirSync(env.XDG_RUNTIME_DIR, { recursive: true, mode: 0o700 });
  return { home, env, cleanup: () => testHome.removeTestHome(home) };
}

/**
 * Starts the browser-mode server; resolves once it printed its URL. `options.env` adds to
 * (or overrides) the environment of `tandem web`, e.g. ANTHROPIC_BASE_URL for a model stub.
 */
export async function startTandem(options = {}) {
  requireBuild();
  const home = makeHome(options);
  // BENCH_ENGINE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the engine.
  const nodeArgs = (process.env.BENCH_ENGINE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'bin/tandem.js'), 'web', '--port', '0', '--no-open'], {
    cwd: home.home,
    env: { ...home.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tandem web printed no URL within 15 s. stderr: ${stderr.slice(-500)}`)), 15_000);
    child.stdout.on('data', (d) => {
      stdout += d;
      const match = /Tandem is running at (\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`tandem web exited early (code ${code}, signal ${signal}). stderr: ${stderr.slice(-500)}`));
    });
  });
  const parsed = new URL(url);
  return {
    url,
    pid: child.pid,
    port: Number(parsed.port),
    token: parsed.searchParams.get('token'),
    home: home.home,
    get stderr() {
      return stderr;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      home.cleanup();
    },
  };
}
