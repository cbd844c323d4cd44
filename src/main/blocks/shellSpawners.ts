import type { Block } from '../../shared/blocks';

/**
 * Does a command line start an interactive shell — one without Tandem's integration, since
 * nothing of ours is exported — whose prompts will then show inside the running block?
 * `sudo -i`, `su -`, `doas -s`, `bash --norc`, `docker exec -it c sh`, `kubectl exec -it
 * pod -- bash`, `nsenter -t 1 -a`, `machinectl shell`. Only a guess from the words: the
 * pane says so only once such a block's output also shows a prompt (shellPromptWatch).
 */

const SHELLS = new Set(['sh', 'bash', 'zsh', 'fish', 'dash', 'ash', 'ksh', 'mksh', 'pdksh', 'yash', 'csh', 'tcsh', 'nu', 'elvish', 'xonsh', 'pwsh', 'busybox']);
/** Programs that run a shell when given no program of their own (their options are not parsed). */
const SHELL_BY_DEFAULT = new Set(['nsenter', 'unshare', 'chroot', 'lxc-attach', 'schroot', 'systemd-nspawn']);
/** Container tools whose `exec`/`run`/`debug` with a terminal (`-t`) may run a shell inside. */
const CONTAINER_TOOLS = new Set(['docker', 'podman', 'nerdctl', 'kubectl', 'oc']);
/** Words before the program that do not change it: `env`, `exec`, `command`, `nohup`. */
const PREFIXES = new Set(['env', 'exec', 'command', 'nohup', 'builtin']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Splits on blanks, keeping quoted text as one word without its quotes (enough to name programs and options). */
function words(commandLine: string): string[] {
  const found: string[] = [];
  const pattern = /'([^']*)'|"((?:\\.|[^"\\])*)"|(\S+)/g;
  for (const match of commandLine.matchAll(pattern)) found.push(match[1] ?? match[2] ?? match[3] ?? '');
  return found;
}

const baseName = (word: string) => word.slice(word.lastIndexOf('/') + 1);

/** `-i`, `-is`, `--login`: whether the options among `args` (up to the first operand) include one of `flags`. */
function hasFlag(args: string[], short: string, long: string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (long.includes(arg)) return true;
    if (/^-[A-Za-z]+$/.test(arg) && [...arg.slice(1)].some((letter) => short.includes(letter))) return true;
  }
  return false;
}

/** A shell with no command (`-c`) and no script: only options, or `-i`/`-s` saying it reads the terminal. */
function interactiveShell(program: string, args: string[]): boolean {
  if (program === 'busybox') return args[0] !== undefined && SHELLS.has(args[0]) && args[0] !== 'busybox' && interactiveShell(args[0], args.slice(1));
  if (hasFlag(args, 'c', ['--command'])) return false;
  if (hasFlag(args, 'is', [])) return true;
  return args.every((arg) => arg.startsWith('-') || arg.startsWith('+'));
}

/** After `sudo`/`doas` options: the command they run, if any (`sudo -u bob bash` → `bash`). */
function afterPrivilegeOptions(args: string[], withValue: string): string[] {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return args.slice(i + 1);
    if (!arg.startsWith('-')) return args.slice(i);
    if (/^--[a-z-]+$/.test(arg) && ['--user', '--group', '--host', '--prompt', '--role', '--type', '--chdir', '--close-from', '--other-user'].includes(arg)) i++;
    else if (/^-[A-Za-z]+$/.test(arg) && withValue.includes(arg.at(-1)!)) i++;
  }
  return [];
}

function spawnsShell(argv: string[]): boolean {
  let i = 0;
  // `env -i TERM=dumb bash`: the prefixes, their options and assignments.
  while (i < argv.length && (ASSIGNMENT.test(argv[i]!) || PREFIXES.has(argv[i]!) || (i > 0 && argv[i]!.startsWith('-')))) i++;
  const program = baseName(argv[i] ?? '');
  const args = argv.slice(i + 1);
  if (SHELLS.has(program)) return interactiveShell(program, args);
  if (SHELL_BY_DEFAULT.has(program)) return true;
  switch (program) {
    case 'su':
      return !hasFlag(args, 'c', ['--command', '--session-command']);
    case 'sudo':
      return hasFlag(args, 'is', ['--login', '--shell']) || spawnsShell(afterPrivilegeOptions(args, 'CDghpRrTUu'));
    case 'doas':
      return hasFlag(args, 's', []) || spawnsShell(afterPrivilegeOptions(args, 'Cu'));
    case 'machinectl':
      return args.includes('shell') || args.includes('login');
    case 'toolbox':
    case 'distrobox':
      return args.includes('enter');
  }
  if (CONTAINER_TOOLS.has(program)) {
    if (!['exec', 'run', 'debug', 'attach'].some((verb) => args.includes(verb))) return false;
    if (!hasFlag(args, 't', ['--tty', '-it', '-ti'])) return false;
    // `docker exec -it c bash -l`, `kubectl exec -it pod -- sh`; `docker run -it ubuntu` (an image alone) runs its default, usually a shell.
    const shellWord = args.findIndex((arg) => SHELLS.has(baseName(arg)));
    if (shellWord >= 0) return interactiveShell(baseName(args[shellWord]!), args.slice(shellWord + 1));
    const afterRun = args.slice(args.indexOf('run') + 1).filter((arg) => !arg.startsWith('-'));
    return args.includes('run') && afterRun.length === 1;
  }
  return false;
}

/** The command line, when it starts a shell without Tandem's integration (as typed, for the notice); else undefined. */
export function shellStartedBy(commandLine: string): string | undefined {
  const line = commandLine.trim();
  if (!line || line.includes('\n')) return undefined;
  return spawnsShell(words(line)) ? line : undefined;
}

/** The pane's one line about such a shell, naming the command (shortened) and the host it runs on. */
export function shellWithoutIntegrationNotice(block: Pick<Block, 'command' | 'host'>): string {
  const command = block.command.length > 60 ? `${block.command.slice(0, 59)}…` : block.command;
  const where = block.host ? ` on ${block.host}` : '';
  return `\`${command}\`${where} started a shell without Tandem's integration: its commands are part of this block until it exits.`;
}
