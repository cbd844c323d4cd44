/** Path checks: what a command does to a path, and when that is RED (system files, devices, protected paths, catastrophes). */
import { shown, type Arg } from './arguments';
import { components, everythingIn, hasGlob, patternCovers, patternWithin, unescapeGlob } from './pathPatterns';
import type { PathContext } from './pathContext';
import type { Verdict } from './verdict';
import { displayPath, resolveWord } from './wordPaths';

/** Top-level (and a few second-level) directories whose loss breaks the system or every user's files. */
export const SYSTEM_DIRS: readonly string[] = [
  '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/media', '/mnt', '/nix', '/opt',
  '/proc', '/root', '/run', '/sbin', '/snap', '/srv', '/sys', '/tmp', '/usr', '/var', '/Applications', '/Library',
  '/System', '/Users', '/Volumes', '/private', '/usr/bin', '/usr/sbin', '/usr/lib', '/usr/local', '/usr/share',
  '/usr/include', '/var/lib', '/var/log', '/var/db', '/private/etc', '/private/var',
];

/** Writing or deleting anything under these is RED: the system's own files. */
export const SYSTEM_FILE_DIRS: readonly string[] = [
  '/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/boot', '/sys', '/proc', '/System',
  '/Library', '/private/etc', '/var/lib', '/var/db', '/var/spool/cron',
];
/** Under SYSTEM_FILE_DIRS but managed by the user (Homebrew, `make install` prefixes). */
const SYSTEM_FILE_EXCEPTIONS: readonly string[] = ['/usr/local'];

const HARMLESS_DEVICES = new Set(['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/stdin', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/console']);
const HARMLESS_DEVICE_DIRS = ['/dev/fd/', '/dev/pts/', '/dev/shm/', '/dev/tty'];

function isHomeDirectory(path: string): boolean {
  return /^\/(home|Users)\/[^/]+$/i.test(path) || path === '/root' || path === '/var/root';
}

/** What a command does to a path. */
export type PathOp =
  /** `>`, `>>`, tee, cp/mv/install destination, `dd of=`, touch, mkdir, ln … */
  | 'write'
  /** rm without -r, unlink, shred */
  | 'delete'
  /** rm -r, find -delete without tests, rsync --delete destination */
  | 'delete-tree'
  /** mv source: gone from where it was */
  | 'move-away'
  /** chmod, chown, chgrp … */
  | 'modify'
  /** chmod -R, chown -R … */
  | 'modify-tree';

const OP_VERB: Readonly<Record<PathOp, string>> = {
  write: 'writes to',
  delete: 'deletes',
  'delete-tree': 'deletes',
  'move-away': 'moves',
  modify: 'changes',
  'modify-tree': 'changes',
};

export interface PathCheckOptions {
  /** How the command is shown in a catastrophe message (`rm -r -f`, `chmod -R`). */
  label?: string;
  /** What it does, in catastrophe messages (`deletes`, `changes the owner of`). */
  verb?: string;
  /** The YELLOW reason when nothing worse is found (default: `writes to <paths>`). */
  otherwise?: string;
}

export function isDevice(path: string): boolean {
  const p = unescapeGlob(path);
  if (!p.startsWith('/dev/') || HARMLESS_DEVICES.has(p)) return false;
  return !HARMLESS_DEVICE_DIRS.some((d) => p.startsWith(d));
}

export function isHarmlessDevice(path: string): boolean {
  const p = unescapeGlob(path);
  return p.startsWith('/dev/') && !isDevice(p);
}

function isSystemFile(pattern: string): boolean {
  return SYSTEM_FILE_DIRS.some((d) => patternWithin(pattern, d)) && !SYSTEM_FILE_EXCEPTIONS.some((d) => patternWithin(pattern, d));
}

function protectedHit(pattern: string, op: PathOp, paths: PathContext): string | undefined {
  const tree = op === 'delete-tree' || op === 'move-away' || op === 'modify-tree';
  return paths.protectedPaths.find((p) => patternWithin(pattern, p) || (tree && patternCovers(pattern, p)));
}

/** What a recursive (or wholesale) operation on the pattern would wipe out, if it is catastrophic. */
function catastrophe(pattern: string, op: PathOp, paths: PathContext): string | undefined {
  const tree = op === 'delete-tree' || op === 'move-away' || op === 'modify-tree';
  if (pattern === '/') return op === 'write' ? undefined : 'everything';
  const dir = everythingIn(pattern);
  if (dir !== undefined && op !== 'write') {
    if (dir === '/') return 'everything in /';
    if (tree && patternCovers(dir, paths.home)) return dir === paths.home ? 'everything in your home directory' : `everything in ${dir}`;
    if (op === 'delete-tree' && patternCovers(dir, paths.cwd)) return 'everything in the current directory';
    if (SYSTEM_DIRS.some((s) => patternCovers(dir, s))) return `everything in ${dir}`;
  }
  if (tree) {
    if (patternCovers(pattern, paths.home)) return unescapeGlob(pattern) === paths.home ? 'your home directory' : `${unescapeGlob(pattern)}, with your home directory in it`;
    const system = SYSTEM_DIRS.find((s) => patternCovers(pattern, s));
    if (system) return `the system directory ${system}`;
    if (isHomeDirectory(unescapeGlob(pattern)) || (hasGlob(pattern) && patternWithin(pattern, '/home') && components(pattern).length === 2)) return 'a home directory';
    if (op === 'delete-tree' && patternCovers(pattern, paths.cwd)) return 'the current directory';
  } else if (op === 'modify') {
    const p = unescapeGlob(pattern);
    if (p === paths.home) return 'your home directory';
    if (SYSTEM_DIRS.includes(p)) return `the system directory ${p}`;
  }
  return undefined;
}

/**
 * Checks what a command does to the path an argument names, raising on `out`: RED for a device,
 * a protected path, a system file or a catastrophe (`rm -r` of `/`, `~`, `*` …), YELLOW for any
 * other change. `/dev/null` and friends change nothing.
 */
export function checkPath(arg: Arg, op: PathOp, out: Verdict, paths: PathContext, options: PathCheckOptions = {}): void {
  const resolved = resolveWord(arg.word, paths);
  const opVerb = OP_VERB[op];
  const verb = options.verb ?? opVerb;
  const lead = options.label ? `${options.label} on ${shown(arg)} ` : '';
  let changed = false;
  for (const pattern of resolved.known) {
    const shownPath = displayPath(pattern, paths);
    if (isHarmlessDevice(pattern)) continue;
    changed = true;
    out.write(shownPath);
    if (isDevice(pattern)) {
      out.red(`${opVerb} ${shownPath}: a device, this can wipe a disk`);
      continue;
    }
    const what = catastrophe(pattern, op, paths);
    if (what) {
      out.red(`${lead}${verb} ${what}`);
      continue;
    }
    const prot = protectedHit(pattern, op, paths);
    if (prot) {
      out.red(`${opVerb} protected path ${displayPath(prot, paths)}`);
      out.touchProtected(prot);
    }
    if (isSystemFile(pattern)) out.red(`${opVerb} system file ${shownPath}`);
  }
  if (resolved.unknown && resolved.known.length === 0) {
    changed = true;
    out.write(arg.text);
    for (const dir of resolved.under) {
      const inside = `${dir === '/' ? '' : dir}/*`;
      if (dir !== '/' && isDevice(inside)) out.red(`${opVerb} ${arg.text}: a device, this can wipe a disk`);
      const prot = protectedHit(inside, 'write', paths) ?? paths.protectedPaths.find((p) => patternWithin(dir, p));
      if (prot) {
        out.red(`${opVerb} ${arg.text}, inside protected path ${displayPath(prot, paths)}`);
        out.touchProtected(prot);
      }
      if (dir !== '/' && isSystemFile(inside)) out.red(`${opVerb} ${arg.text}, inside system directory ${displayPath(dir, paths)}`);
    }
    if (op !== 'write') {
      for (const pattern of resolved.ifEmpty) {
        const what = catastrophe(pattern, op, paths);
        if (what) out.red(`${options.label ?? verb} on ${arg.text}: if the expansion is empty that is ${displayPath(pattern, paths)}, which ${verb} ${what}`);
      }
    }
  } else if (resolved.unknown) {
    out.yellow(`${opVerb} ${arg.text}: relative to a directory known only at run time`);
  }
  if (!changed) return;
  if (options.otherwise) out.yellow(options.otherwise);
  else out.yellow(resolved.known.length > 0 ? `${opVerb} ${resolved.known.map((p) => displayPath(p, paths)).join(', ')}` : `${opVerb} ${arg.text}, a path known only at run time`);
}
