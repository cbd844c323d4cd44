/** What paths a word names: tilde, `$HOME`, known `$( )` output and braces resolved against every possible cwd. */
import { posix } from 'node:path';
import type { Word } from '../shellParser';
import { escapeGlob, expandBraces, unescapeGlob } from './pathPatterns';
import type { PathContext } from './pathContext';

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
