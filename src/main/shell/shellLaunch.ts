import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanChildEnv } from './childEnv';
import { privateRuntimeDir } from './privateRuntimeDir';
import { unpackedPath } from '../packaged/unpackedPath';
import { buildStage0, stage1Text } from '../ssh/remoteCommand';

/**
 * How Tandem starts a shell: which executable, which arguments, which environment, and —
 * for bash, zsh and fish — how its OSC 133 integration script gets in without changing
 * what the user's own startup files see. docs/shell-integration.md explains the scripts.
 */

export type ShellKind = 'bash' | 'zsh' | 'fish' | 'other';

export interface ShellLaunch {
  /** Executable to spawn. */
  file: string;
  args: string[];
  /** Full environment for the child. */
  env: Record<string, string>;
  kind: ShellKind;
  /** Whether integration was injected. */
  integration: boolean;
  /**
   * With integration: where Tandem puts `NAME=value` lines for the next command typed (a
   * plan step); the integration exports them for that command line alone, then removes the file.
   */
  stepEnvFile?: string;
  /** Remove temp files (idempotent). The script already deletes them once it has read them. */
  cleanup(): void;
}

export interface ShellLaunchOptions {
  shellPath: string;
  extraArgs?: string[];
  login: boolean;
  integration: boolean;
  /** Per-session secret carried by our marks; [A-Za-z0-9_-]{8,128}. */
  nonce: string;
  baseEnv: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Variables whose exported values the integration reports with each prompt (when they
   * changed), for the model's standing context: `[context] include_env`, secrets left out.
   */
  reportEnv?: readonly string[];
  /** Wrap an interactive `ssh` so the integration travels with it (`[ssh] integrate = "auto"`, docs/ssh.md). */
  ssh?: boolean;
  /** The file of servers remembered as refusing the ssh bootstrap (ssh/plainHosts.ts): the wrapper goes plain for them. */
  sshPlainHosts?: string;
}

const NONCE_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** bash, zsh or fish by the executable's name (`/usr/bin/bash`, `-zsh`, `fish.exe`, `bash5`). */
export function shellKindOf(shellPath: string): ShellKind {
  const name = basename(shellPath.replace(/\\/g, '/'))
    .replace(/^-/, '')
    .replace(/\.exe$/i, '')
    .toLowerCase();
  const match = /^(bash|zsh|fish)(?:[-_.]?\d[\d.]*)?$/.exec(name);
  return match ? (match[1] as ShellKind) : 'other';
}

let assetsDirCache: string | undefined;

/**
 * The directory holding the integration scripts. Looks upwards from this module for
 * `assets/shell-integration` — from src/main/shell (Vitest), from out/main (built) and from
 * inside app.asar, where the path is rewritten to app.asar.unpacked because a shell cannot
 * read files inside an asar archive (electron-builder must list the folder in asarUnpack).
 */
export function integrationAssetsDir(): string {
  assetsDirCache ??= findIntegrationAssets(dirname(fileURLToPath(import.meta.url)));
  return assetsDirCache;
}

/** Looks in `<dir>/assets/shell-integration` for `from` and each folder above it. */
export function findIntegrationAssets(from: string): string {
  const tried: string[] = [];
  let dir = from;
  for (;;) {
    const candidate = join(dir, 'assets', 'shell-integration');
    const unpacked = unpackedPath(candidate);
    // Inside app.asar the scripts are only usable from app.asar.unpacked.
    tried.push(unpacked);
    if (existsSync(join(unpacked, 'bash', 'tandem.bash'))) return unpacked;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`Shell integration scripts not found; looked in:\n  ${tried.join('\n  ')}`);
}


let versionCache: string | undefined;

function tandemVersion(): string {
  if (versionCache !== undefined) return versionCache;
  versionCache = '0.0.0';
  try {
    const root = dirname(dirname(integrationAssetsDir())).replace(`app.asar.unpacked`, 'app.asar');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown };
    if (typeof pkg.version === 'string') versionCache = pkg.version;
  } catch {
    // Keep the placeholder: a missing version must never stop a shell from starting.
  }
  return versionCache;
}

/** Arguments that make a shell run a command or script instead of an interactive session. */
function runsNonInteractively(kind: ShellKind, args: string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return i + 1 < args.length;
    if (!arg.startsWith('-') && !arg.startsWith('+')) return true; // a script file
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(arg) || arg === '--command') return true;
    if (kind === 'bash' && (arg === '--rcfile' || arg === '--init-file' || arg === '-O' || arg === '+O' || arg === '-o'))
      i++;
    if (kind === 'zsh' && (arg === '-o' || arg === '+o')) i++;
    if (kind === 'fish' && (arg === '-C' || arg === '--init-command' || arg === '-d' || arg === '--debug' || arg === '-o' || arg === '--debug-output' || arg === '--features' || arg === '-f'))
      i++;
  }
  return false;
}

/** Login flag for shells other than bash/zsh/fish that take one. */
const OTHER_LOGIN_FLAGS: Record<string, string> = {
  sh: '-l',
  dash: '-l',
  ksh: '-l',
  mksh: '-l',
  yash: '-l',
  tcsh: '-l',
  nu: '--login',
  pwsh: '-Login',
};

export function buildShellLaunch(options: ShellLaunchOptions): ShellLaunch {
  const { shellPath, login, nonce, cwd } = options;
  const extraArgs = options.extraArgs ?? [];
  const kind = shellKindOf(shellPath);
  const env = cleanChildEnv(options.baseEnv, { cwd, version: tandemVersion() });

  const plain = (): ShellLaunch => {
    const args = [...extraArgs];
    if (login) {
      if (kind !== 'other') args.unshift('-l');
      else {
        const flag = OTHER_LOGIN_FLAGS[basename(shellPath).replace(/\.exe$/i, '').toLowerCase()];
        if (flag && !args.includes(flag)) args.unshift(flag);
      }
    }
    return { file: shellPath, args, env, kind, integration: false, cleanup: () => {} };
  };

  if (!options.integration || kind === 'other' || runsNonInteractively(kind, extraArgs)) return plain();
  if (!NONCE_PATTERN.test(nonce)) throw new Error('Shell integration nonce must match [A-Za-z0-9_-]{8,128}');
  if (kind === 'zsh' && extraArgs.some((arg) => arg === '-f' || arg === '--no-rcs' || /^-[A-Za-z]*f/.test(arg))) {
    // zsh -f reads no startup files at all, ours included.
    return plain();
  }

  const assets = integrationAssetsDir();
  const bootstrap = writeNonceFile(nonce);
  // The wrapper of an ssh pane reads its stage file into a shell variable at start (a remote hop has no such files).
  let stepEnvDir: string;
  try {
    stepEnvDir = privateRuntimeDir({ fill: options.ssh ? (dir) => writeFileSync(join(dir, 'ssh-stage0'), buildStage0(stage1Text(assets)), { mode: 0o600 }) : undefined });
  } catch (error) {
    bootstrap.cleanup();
    throw error;
  }
  const launch: ShellLaunch = {
    file: shellPath,
    args: [],
    env,
    kind,
    integration: true,
    stepEnvFile: join(stepEnvDir, 'step-env'),
    cleanup: () => {
      bootstrap.cleanup();
      rmSync(stepEnvDir, { recursive: true, force: true });
    },
  };
  env.TANDEM_BOOTSTRAP = bootstrap.path;
  env.TANDEM_STEP_ENV = launch.stepEnvFile!;
  if (options.ssh) {
    env.TANDEM_SSH_STAGE0 = join(stepEnvDir, 'ssh-stage0');
    env.TANDEM_SSH_DECIDE = join(assets, 'ssh', 'decide.sh');
    // Where the engine answers whether an ssh that ended should be tried again without integration.
    env.TANDEM_SSH_VERDICTS = stepEnvDir;
    if (options.sshPlainHosts) env.TANDEM_SSH_PLAIN_HOSTS = options.sshPlainHosts;
  }
  const reported = (options.reportEnv ?? []).filter((name) => ENV_NAME.test(name));
  if (reported.length > 0) env.TANDEM_REPORT_ENV = reported.join(' ');

  switch (kind) {
    case 'bash': {
      // In POSIX mode an interactive bash reads only $ENV; the script leaves POSIX mode
      // and reads the real startup files itself. See assets/shell-integration/bash.
      const flags: string[] = [];
      const args: string[] = [];
      let loginShell = login;
      for (let i = 0; i < extraArgs.length; i++) {
        const arg = extraArgs[i]!;
        if (arg === '--norc' || arg === '--noprofile') flags.push(arg.slice(2));
        else if (arg === '--rcfile' || arg === '--init-file') env.TANDEM_BASH_RCFILE = extraArgs[++i] ?? '';
        else if (arg === '-l' || arg === '--login') loginShell = true;
        else if (arg === '--posix') continue;
        else args.push(arg);
      }
      if (flags.length > 0) env.TANDEM_BASH_FLAGS = flags.join(' ');
      if (options.baseEnv.ENV !== undefined) {
        env.TANDEM_ENV_SET = '1';
        env.TANDEM_ENV = options.baseEnv.ENV;
      }
      if (env.HISTFILE === undefined && env.HOME) {
        env.HISTFILE = join(env.HOME, '.bash_history');
        env.TANDEM_BASH_UNEXPORT_HISTFILE = '1';
      }
      env.ENV = escapeForBashEnv(join(assets, 'bash', 'tandem.bash'));
      launch.args = ['--posix', ...(loginShell ? ['-l'] : []), ...args];
      break;
    }
    case 'zsh': {
      // zsh reads $ZDOTDIR/.zshenv, .zprofile, .zshrc, .zlogin; ours source the user's.
      if (options.baseEnv.ZDOTDIR !== undefined) env.TANDEM_ZDOTDIR = options.baseEnv.ZDOTDIR;
      env.ZDOTDIR = join(assets, 'zsh');
      launch.args = [...(login ? ['-l'] : []), ...extraArgs];
      break;
    }
    case 'fish': {
      // --init-command runs after the user's config, before the first prompt.
      const script = join(assets, 'fish', 'tandem.fish');
      launch.args = [...(login ? ['-l'] : []), '--init-command', `source ${quoteForFish(script)}`, ...extraArgs];
      break;
    }
  }
  return launch;
}

function writeNonceFile(nonce: string): { path: string; cleanup(): void } {
  const dir = privateRuntimeDir({ fill: (place) => writeFileSync(join(place, 'bootstrap'), `${nonce}\n`, { mode: 0o600, flag: 'wx' }) });
  const path = join(dir, 'bootstrap');
  let done = false;
  return {
    path,
    cleanup() {
      if (done) return;
      done = true;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** bash expands $ENV (parameters, command substitution) before reading it. */
function escapeForBashEnv(path: string): string {
  return path.replace(/[\\$`]/g, (c) => `\\${c}`);
}

function quoteForFish(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}
