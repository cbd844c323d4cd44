import { stringify } from 'smol-toml';
import type { Respelling } from './keySpelling';
import { tomlLayout, type TomlLayout } from './tomlLayout';

/** Values for keys of top-level tables: `{ ai: { model: "x" } }` is `[ai] model = "x"`. */
export type TomlChanges = Record<string, Record<string, unknown>>;

/**
 * `text` with each changed key's value replaced where it stands; everything else — comments,
 * blank lines, order, the formatting of other keys — stays byte for byte. A key not in the
 * file goes after the last key of its table; a table not in the file is added at the end.
 * Throws when the file holds the table in a form this cannot edit safely (an inline table,
 * dotted keys at the top); the caller then decides what to do.
 */
export function setTomlValues(text: string, changes: TomlChanges): string {
  for (const [table, values] of Object.entries(changes)) {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue;
      text = setValue(text, tomlLayout(text), table, key, tomlLiteral(value));
    }
  }
  return text;
}

/**
 * `text` with keys in an old spelling written in the new one, in place (value, comment and
 * position stay); a key whose new spelling is also set (and wins) is removed, with its line.
 * Throws when a key cannot be found where the layout says tables are.
 */
export function respellTomlKeys(text: string, respelled: readonly Respelling[]): string {
  for (const { table, from, to, shadowed } of respelled) {
    const entry = findEntry(tomlLayout(text), table, from);
    if (!entry) throw new Error(`${table}.${from} is not where it can be renamed`);
    if (shadowed) text = text.slice(0, entry.lineStart) + text.slice(entry.lineEnd);
    else text = text.slice(0, entry.keyStart) + [...entry.key.slice(0, -1), to].map(tomlKey).join('.') + text.slice(entry.keyEnd);
  }
  return text;
}

/** The 1-based line of `table.key` in `text`, if it can be found. */
export function lineOfKey(text: string, table: string, key: string): number | undefined {
  let layout: TomlLayout;
  try {
    layout = tomlLayout(text);
  } catch {
    return undefined;
  }
  const entry = findEntry(layout, table, key);
  const header = layout.headers.find((candidate) => !candidate.array && same(candidate.path, [table]));
  // A key at the top (`foo = 1`, or a whole table written inline) is named by its first part.
  const topLevel = layout.entries.find((candidate) => candidate.table.length === 0 && candidate.key[0] === table);
  const offset = entry?.valueStart ?? header?.start ?? topLevel?.lineStart;
  return offset === undefined ? undefined : lineAt(text, offset);
}

/** The 1-based line of `key` in the `index`th `[[table.name]]` table (of its header without `key`). */
export function lineOfArrayTableKey(text: string, path: readonly string[], index: number, key?: string): number | undefined {
  let layout: TomlLayout;
  try {
    layout = tomlLayout(text);
  } catch {
    return undefined;
  }
  const header = layout.headers.filter((candidate) => candidate.array && same(candidate.path, path))[index];
  if (!header) return undefined;
  const next = layout.headers.find((candidate) => candidate.start > header.start);
  const entry = key === undefined ? undefined : layout.entries.find((candidate) => candidate.lineStart >= header.lineEnd && (!next || candidate.lineStart < next.start) && same(candidate.key, [key]));
  return lineAt(text, entry?.valueStart ?? header.start);
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index >= 0 && index < offset; index = text.indexOf('\n', index + 1)) line++;
  return line;
}

function setValue(text: string, layout: TomlLayout, table: string, key: string, literal: string): string {
  const entry = findEntry(layout, table, key);
  if (entry) return text.slice(0, entry.valueStart) + literal + text.slice(entry.valueEnd);
  const line = `${tomlKey(key)} = ${literal}\n`;
  const headerIndex = layout.headers.findIndex((header) => !header.array && same(header.path, [table]));
  if (headerIndex >= 0) {
    const header = layout.headers[headerIndex]!;
    const nextHeader = layout.headers[headerIndex + 1];
    const inTable = layout.entries.filter((candidate) => candidate.lineStart >= header.lineEnd && (!nextHeader || candidate.lineStart < nextHeader.start));
    const at = inTable.at(-1)?.lineEnd ?? header.lineEnd;
    return text.slice(0, at) + (at > 0 && text[at - 1] !== '\n' ? '\n' : '') + line + text.slice(at);
  }
  if (layout.entries.some((candidate) => candidate.table.length === 0 && candidate.key[0] === table)) {
    throw new Error(`[${table}] is written as an inline table or dotted keys`);
  }
  // Only sub-tables (`[[ai.fallback]]`) so far: the table goes before the first of them.
  const firstSubTable = layout.headers.find((header) => header.path[0] === table);
  if (firstSubTable) return `${text.slice(0, firstSubTable.start)}[${tomlKey(table)}]\n${line}\n${text.slice(firstSubTable.start)}`;
  const separator = text === '' ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  return `${text}${separator}[${tomlKey(table)}]\n${line}`;
}

function findEntry(layout: TomlLayout, table: string, key: string) {
  return layout.entries.find((entry) => (same(entry.table, [table]) && same(entry.key, [key])) || (entry.table.length === 0 && same(entry.key, [table, key])));
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((part, index) => part === b[index]);
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

/** A value as TOML writes it (smol-toml's own formatting of strings, numbers and arrays). */
function tomlLiteral(value: unknown): string {
  const line = stringify({ v: value }).trim();
  if (!line.startsWith('v = ')) throw new Error(`cannot write ${typeof value} in place`);
  return line.slice('v = '.length);
}
