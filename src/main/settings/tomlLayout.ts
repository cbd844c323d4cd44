/**
 * Where things are in a TOML file, for editing it in place: each table header and each
 * `key = value` with the spans of its key path and its value. Comments, blank lines and
 * formatting are simply the text between them. Only the structure is read (values are
 * skipped over, strings and arrays spanning lines included); smol-toml does the parsing.
 */

export interface TomlHeader {
  /** `[a.b]` → ['a', 'b']. */
  path: string[];
  /** `[[…]]`: an array of tables. */
  array: boolean;
  start: number;
  /** Just past the header line's newline (or the end of the text). */
  lineEnd: number;
}

export interface TomlEntry {
  /** The table the entry is in (the last header above it; [] at the top). */
  table: string[];
  /** `a.b = 1` → ['a', 'b']. */
  key: string[];
  /** Where the line holding the key starts. */
  lineStart: number;
  /** The span of the whole key path (`a.b`, quotes included). */
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  /** Just past the entry's last line's newline (or the end of the text). */
  lineEnd: number;
}

export interface TomlLayout {
  headers: TomlHeader[];
  entries: TomlEntry[];
}

/** Reads the layout of `text`; throws on structure it cannot follow (the file is then not edited in place). */
export function tomlLayout(text: string): TomlLayout {
  const headers: TomlHeader[] = [];
  const entries: TomlEntry[] = [];
  let table: string[] = [];
  let at = 0;
  while (at < text.length) {
    const lineStart = at;
    at = skipSpaces(text, at);
    const char = text[at];
    if (char === undefined) break;
    if (char === '\n' || char === '\r') {
      at = nextLine(text, at);
      continue;
    }
    if (char === '#') {
      at = nextLine(text, at);
      continue;
    }
    if (char === '[') {
      const array = text[at + 1] === '[';
      const parsed = readKey(text, at + (array ? 2 : 1));
      let end = skipSpaces(text, parsed.end);
      if (text[end] !== ']' || (array && text[end + 1] !== ']')) throw new Error(`unreadable table header at offset ${lineStart}`);
      end += array ? 2 : 1;
      const lineEnd = endOfLine(text, end);
      table = parsed.path;
      headers.push({ path: parsed.path, array, start: at, lineEnd });
      at = lineEnd;
      continue;
    }
    const key = readKey(text, at);
    const equals = skipSpaces(text, key.end);
    if (text[equals] !== '=') throw new Error(`expected = after a key at offset ${at}`);
    const valueStart = skipSpaces(text, equals + 1);
    const valueEnd = skipValue(text, valueStart);
    const lineEnd = endOfLine(text, valueEnd);
    entries.push({ table, key: key.path, lineStart, keyStart: at, keyEnd: key.end, valueStart, valueEnd, lineEnd });
    at = lineEnd;
  }
  return { headers, entries };
}

function skipSpaces(text: string, at: number): number {
  while (text[at] === ' ' || text[at] === '\t') at++;
  return at;
}

function nextLine(text: string, at: number): number {
  const newline = text.indexOf('\n', at);
  return newline < 0 ? text.length : newline + 1;
}

/** After a value or header: spaces, an optional comment, the newline. */
function endOfLine(text: string, at: number): number {
  at = skipSpaces(text, at);
  if (text[at] === '#') return nextLine(text, at);
  if (text[at] === '\r') at++;
  if (at >= text.length) return text.length;
  if (text[at] !== '\n') throw new Error(`unexpected text after a value at offset ${at}`);
  return at + 1;
}

/** A dotted key of bare and quoted parts. */
function readKey(text: string, at: number): { path: string[]; end: number } {
  const path: string[] = [];
  for (;;) {
    at = skipSpaces(text, at);
    const char = text[at];
    if (char === '"' || char === "'") {
      const end = skipString(text, at);
      path.push(char === '"' ? (JSON.parse(text.slice(at, end)) as string) : text.slice(at + 1, end - 1));
      at = end;
    } else {
      const match = /^[A-Za-z0-9_-]+/.exec(text.slice(at, at + 256));
      if (!match) throw new Error(`unreadable key at offset ${at}`);
      path.push(match[0]);
      at += match[0].length;
    }
    const next = skipSpaces(text, at);
    if (text[next] !== '.') return { path, end: at };
    at = next + 1;
  }
}

/** Just past a string starting at `at` (basic, literal, or their multi-line forms). */
function skipString(text: string, at: number): number {
  const quote = text[at]!;
  const triple = text.startsWith(quote.repeat(3), at);
  const close = triple ? quote.repeat(3) : quote;
  let index = at + close.length;
  while (index < text.length) {
    const char = text[index];
    if (quote === '"' && char === '\\') {
      index += 2;
      continue;
    }
    if (!triple && char === '\n') break;
    if (text.startsWith(close, index)) {
      // A multi-line string may end in up to two more quotes than its delimiter.
      let end = index + close.length;
      while (triple && text[end] === quote && end < index + close.length + 2) end++;
      return end;
    }
    index++;
  }
  throw new Error(`unterminated string at offset ${at}`);
}

/** Just past the value starting at `at`: a string, an array or inline table (nested), or a bare scalar. */
function skipValue(text: string, at: number): number {
  const char = text[at];
  if (char === '"' || char === "'") return skipString(text, at);
  if (char === '[' || char === '{') {
    let depth = 0;
    let index = at;
    while (index < text.length) {
      const current = text[index]!;
      if (current === '"' || current === "'") {
        index = skipString(text, index);
        continue;
      }
      if (current === '#') {
        index = nextLine(text, index);
        continue;
      }
      if (current === '[' || current === '{') depth++;
      else if (current === ']' || current === '}') {
        depth--;
        if (depth === 0) return index + 1;
      }
      index++;
    }
    throw new Error(`unterminated ${char === '[' ? 'array' : 'inline table'} at offset ${at}`);
  }
  let index = at;
  while (index < text.length && !/[\s#,\]}]/.test(text[index]!)) index++;
  if (index === at) throw new Error(`missing value at offset ${at}`);
  return index;
}
