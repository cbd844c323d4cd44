import { withoutLauncherChanges } from './launcherEnv';

/**
 * The environment a shell in a Tandem pane starts with: the engine's own, with what the
 * app's launcher (AppImage, snap) and Electron changed undone (launcherEnv.ts), minus what
 * belongs to another terminal, to Tandem's bootstrap or to Electron, plus the variables a
 * terminal sets for its children.
 */

/** Dropped by exact name. */
const DROPPED_NAMES = new Set([
  // Sizes and identities of the terminal Tandem itself was started from.
  'COLUMNS',
  'LINES',
  'TERMCAP',
  'TERM_SESSION_ID',
  'OLDPWD',
  'TMUX',
  'TMUX_PANE',
  'STY',
  'WINDOWID',
  'ITERM_SESSION_ID',
  'ITERM_PROFILE',
  'WT_SESSION',
  'WT_PROFILE_ID',
  'TERMINAL_EMULATOR',
  'KONSOLE_VERSION',
  'VTE_VERSION',
  // Electron: an Electron app started from the pane (VS Code, another Tandem) would
  // otherwise run as plain Node or attach to our console.
  'ELECTRON_RUN_AS_NODE',
  'ELECTRON_NO_ATTACH_CONSOLE',
  'ELECTRON_ENABLE_LOGGING',
  'ELECTRON_RENDERER_URL',
  'CHROME_DESKTOP',
  'GOOGLE_API_KEY',
  'CHROME_CRASHPAD_PIPE_NAME',
]);

/** Dropped by prefix: other terminals' shell integration and our own bootstrap. */
const DROPPED_PREFIXES = ['TANDEM_', 'VSCODE_', 'KITTY_', 'GHOSTTY_', 'WEZTERM_', 'ALACRITTY_', 'KONSOLE_DBUS_', 'TERM_PROGRAM'];

export function cleanChildEnv(
  base: NodeJS.ProcessEnv,
  options: { cwd: string; version: string; platform?: NodeJS.Platform },
): Record<string, string> {
  const defined: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined) defined[name] = value;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(withoutLauncherChanges(defined))) {
    if (DROPPED_NAMES.has(name)) continue;
    if (DROPPED_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    env[name] = value;
  }
  env.TERM = 'xterm-256color';
  env.COLORTERM = 'truecolor';
  env.TERM_PROGRAM = 'Tandem';
  env.TERM_PROGRAM_VERSION = options.version;
  // A GUI app can start without a locale; a shell without one mangles Unicode input.
  if (!env.LC_ALL && !env.LC_CTYPE && !env.LANG) {
    env.LANG = (options.platform ?? process.platform) === 'darwin' ? 'en_US.UTF-8' : 'C.UTF-8';
  }
  // Shells keep a logical (symlink-preserving) $PWD only if it names their actual cwd.
  env.PWD = options.cwd;
  return env;
}
