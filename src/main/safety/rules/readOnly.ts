/** Commands that only read, and version or help queries. */
import { interpreterName } from './interpreters';
import type { Invocation, Rule } from './rule';

/**
 * Read-only whatever their arguments (writes through redirections are checked separately). Each was
 * gone through for options that run a program, write a file or open a pager, editor or browser
 * (docs/safety.md, "Read-only commands: what was checked"); tools with such an option have a rule of
 * their own in readers.ts.
 */
export const READ_ONLY: ReadonlySet<string> = new Set([
  'ls', 'dir', 'vdir', 'cat', 'tac', 'nl', 'head', 'tail', 'more', 'most', 'grep', 'egrep', 'fgrep', 'wc', 'stat',
  'du', 'df', 'ps', 'pstree', 'pgrep', 'top', 'htop', 'btop', 'pwd', 'echo', 'which', 'type', 'whereis', 'whoami',
  'id', 'groups', 'uname', 'uptime', 'free', 'lsblk', 'lscpu', 'lsusb', 'lsmod', 'lsof', 'nproc', 'arch',
  'tty', 'printenv', 'true', 'false', ':', 'basename', 'dirname', 'realpath', 'readlink', 'jq', 'diff', 'cmp',
  'comm', 'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'shasum',
  'md5', 'help', 'apropos', 'whatis', 'cut', 'tr', 'paste', 'join', 'column', 'fold', 'fmt', 'expand', 'unexpand',
  'rev', 'od', 'hexdump', 'hd', 'strings', 'seq', 'sleep', 'yes', 'cal', 'bc', 'expr', 'factor', 'getconf', 'locale',
  'cd', 'pushd', 'popd', 'dirs', 'last', 'w', 'who', 'users', 'vmstat', 'iostat', 'mpstat',
  'netstat', 'exa', 'lsd', 'zcat', 'zmore', 'zgrep', 'bzcat', 'xzcat', 'look', 'numfmt', 'tsort',
  'base32', 'clear', 'tput', 'locate', 'lsattr', 'getfacl', 'namei', 'objdump', 'readelf', 'pathchk', 'lsns',
  'pidof', 'tokei', 'csvlook', 'envsubst', 'dust', 'duf', 'ipcs', 'logname', 'getent', 'colordiff', 'wdiff',
  'break', 'continue', 'return', 'shift', 'getopts', 'times', 'caller',
]);

/** Tools whose lone `--version` / `--help` only prints. */
const VERSION_TOOLS: ReadonlySet<string> = new Set([
  'node', 'npm', 'npx', 'yarn', 'pnpm', 'bun', 'deno', 'python', 'pip', 'pip3', 'ruby', 'gem', 'go', 'java', 'javac',
  'gcc', 'g++', 'clang', 'clang++', 'cc', 'make', 'cmake', 'ninja', 'docker', 'podman', 'kubectl', 'helm',
  'terraform', 'tofu', 'pulumi', 'cargo', 'rustc', 'rustup', 'git', 'tsc', 'php', 'perl', 'lua', 'code', 'uv', 'poetry',
  'brew', 'apt', 'dnf', 'gradle', 'mvn', 'eslint', 'prettier', 'vitest', 'jest', 'pytest', 'tandem', 'openssl', 'ssh',
  'curl', 'wget', 'rsync', 'tar', 'zip', 'unzip', 'gzip', 'vim', 'nvim', 'emacs', 'nano', 'tmux', 'screen', 'zsh',
  'bash', 'fish', 'sh', 'sed', 'awk', 'gawk', 'find', 'rm', 'cp', 'mv', 'dd', 'aws', 'gcloud', 'az', 'gh', 'glab',
  'sqlite3', 'psql', 'mysql', 'redis-cli', 'ffmpeg', 'convert', 'magick', 'systemctl', 'journalctl', 'xargs',
]);
const VERSION_ARGS: ReadonlySet<string> = new Set(['--version', '-version', '--help', '-help', '-h', '-V', '-v', 'version', 'help']);

/** `node --version`, `docker help`: only prints. */
export function isVersionQuery(inv: Invocation): boolean {
  const name = interpreterName(inv.name);
  return (VERSION_TOOLS.has(name) || VERSION_TOOLS.has(inv.name)) && inv.args.length === 1 && VERSION_ARGS.has(inv.args[0]?.value ?? '');
}

export const readOnlyRule: Rule = (inv, out) => out.green(`${inv.name} only reads`);
