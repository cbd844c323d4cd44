/**
 * String literals and call arguments in program code, as far as inlineCode.ts needs them: quotes
 * of the common languages (`'…'`, `"…"`, `` `…` ``, Python's prefixes and triple quotes, Perl's
 * `q(…)`/`qq{…}`, Ruby's `%q(…)`/`%w(…)`, Lua's `[[…]]`), whether a value is interpolated, and
 * an argument list read up to its end. Not a parser of any of them: whatever it cannot read is an
 * argument without a value, which makes the call unjudged, never harmless.
 */
/** The languages whose quoting rules differ enough to matter here. */
export type CodeLanguage = 'python' | 'perl' | 'ruby' | 'javascript' | 'php' | 'lua' | 'r' | 'awk' | 'applescript' | 'vim' | 'lisp' | 'other';

export interface CodeLiteral {
  value: string;
  /** Index just after the literal. */
  end: number;
  /** Holds `$x`, `#{x}`, `${x}` or an f-string field: its text is completed when the code runs. */
  interpolated: boolean;
  /** A word list (`%w(rm -rf ~)`). */
  words?: string[];
}

export interface CodeArgument {
  /** The value when the argument is one literal. */
  value?: string;
  /** A list of values (`["rm", "-rf", d]`), undefined where an element is not a literal. */
  list?: (string | undefined)[];
  interpolated?: boolean;
  /** A literal joined to something else (`"rm " + d`, `"rm %s" % d`). */
  joined?: boolean;
  /** A named argument or options object (`shell=True`, `{ stdio: 'inherit' }`). */
  keyword?: boolean;
}

/** Languages where a call's parentheses may be left out (`system "id";`, `do shell script "id"`). */
const PARENTHESES_OPTIONAL: ReadonlySet<CodeLanguage> = new Set(['perl', 'ruby', 'applescript', 'lua', 'vim']);
const PAIRS: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}', '<': '>' };
const INTERPOLATION = /\$\{|#\{|\$[A-Za-z_{]|@[A-Za-z_]/;

/**
 * The literal starting at `i`. `command`: `i` is at the delimiter after Perl's `qx` or Ruby's
 * `%x`, or at a backtick; `backtick`: at a backtick.
 */
export function readCodeLiteral(code: string, i: number, mode: 'any' | 'command' | 'backtick' = 'any', language: CodeLanguage = 'other'): CodeLiteral | undefined {
  const c = code[i] ?? '';
  if (mode !== 'any') return delimited(code, i, c, true);
  const pythonPrefix = language === 'python' ? /^([rRbBuUfF]{1,2})(['"])/.exec(code.slice(i, i + 3)) : null;
  if (pythonPrefix) {
    const literal = readCodeLiteral(code, i + (pythonPrefix[1] as string).length, 'any', 'other');
    return literal && /f/i.test(pythonPrefix[1] as string) ? { ...literal, interpolated: literal.interpolated || /\{[^}]/.test(literal.value) } : literal;
  }
  if ((c === '"' || c === "'") && code.startsWith(c.repeat(3), i)) {
    const end = code.indexOf(c.repeat(3), i + 3);
    if (end < 0) return undefined;
    return { value: code.slice(i + 3, end), end: end + 3, interpolated: false };
  }
  if (c === "'" && language === 'vim') {
    let value = '';
    for (let j = i + 1; j < code.length; j++) {
      if (code[j] !== "'") value += code[j];
      else if (code[j + 1] === "'") {
        value += "'";
        j++;
      } else return { value, end: j + 1, interpolated: false };
    }
    return undefined;
  }
  if (c === '"' || c === "'" || c === '`') return delimited(code, i, c, c !== "'" || language === 'python' || language === 'javascript');
  if (c === '[' && code[i + 1] === '[' && language === 'lua') {
    const end = code.indexOf(']]', i + 2);
    return end < 0 ? undefined : { value: code.slice(i + 2, end), end: end + 2, interpolated: false };
  }
  const perl = language === 'perl' ? /^(qq|q|qw)([^\w\s])/.exec(code.slice(i, i + 3)) : null;
  if (perl && !/\w/.test(code[i - 1] ?? '')) return wordsOr(delimited(code, i + (perl[1] as string).length, perl[2] as string, perl[1] === 'qq'), perl[1] === 'qw');
  const ruby = language === 'ruby' ? /^%([qQw]?)([^\w\s])/.exec(code.slice(i, i + 3)) : null;
  if (ruby) return wordsOr(delimited(code, i + 1 + (ruby[1] as string).length, ruby[2] as string, ruby[1] !== 'q' && ruby[1] !== 'w'), ruby[1] === 'w');
  return undefined;
}

function wordsOr(literal: CodeLiteral | undefined, words: boolean): CodeLiteral | undefined {
  return literal && words ? { ...literal, words: literal.value.split(/\s+/).filter((w) => w !== '') } : literal;
}

/** The text between an opening delimiter at `i` and its close (brackets nest); `interpolates`: double-quote rules. */
function delimited(code: string, i: number, open: string, interpolates: boolean): CodeLiteral | undefined {
  const close = PAIRS[open] ?? open;
  let depth = 0;
  let value = '';
  for (let j = i + 1; j < code.length; j++) {
    const ch = code[j] as string;
    if (ch === '\\' && j + 1 < code.length) {
      const next = code[j + 1] as string;
      value += next === close || next === '\\' || next === open || interpolates ? unescape(next) : `\\${next}`;
      j++;
    } else if (ch === close && depth === 0) return { value, end: j + 1, interpolated: interpolates && INTERPOLATION.test(value) };
    else {
      if (ch === open && close !== open) depth++;
      else if (ch === close) depth--;
      value += ch;
    }
  }
  return undefined;
}

function unescape(ch: string): string {
  return ch === 'n' ? '\n' : ch === 't' ? '\t' : ch;
}

/**
 * The arguments of a call whose name ends at `start`: `(a, b)`, or without parentheses up to the
 * end of the statement (`system "…";`, `(shell-command "…")` in Lisp). `called`: something follows
 * the name that makes it a call rather than a word.
 */
export function readCodeArguments(code: string, start: number, language: CodeLanguage): { items: CodeArgument[]; end: number; called: boolean } {
  let i = skipBlanks(code, start);
  const lisp = language === 'lisp';
  const parenthesised = !lisp && code[i] === '(';
  if (parenthesised) i++;
  else if (!lisp && !PARENTHESES_OPTIONAL.has(language)) return { items: [], end: i, called: false };
  const items: CodeArgument[] = [];
  const ends = parenthesised ? ')' : lisp ? ')' : ';\n)}';
  for (;;) {
    i = skipBlanks(code, i);
    if (i >= code.length || ends.includes(code[i] as string)) break;
    const from = i;
    const item = readItem(code, i, language, ends);
    items.push(item.argument);
    i = skipBlanks(code, item.end);
    if (code[i] === ',') i++;
    else if (!lisp && !ends.includes(code[i] ?? ')') && i < code.length) i = skipToSeparator(code, i, ends);
    // A stray closing bracket (`system ]`) is not a separator: step over it rather than stop here.
    if (i <= from) i = from + 1;
  }
  const called = parenthesised || items.length > 0;
  return { items, end: Math.min(code.length, i + (parenthesised ? 1 : 0)), called };
}

function readItem(code: string, i: number, language: CodeLanguage, ends: string): { argument: CodeArgument; end: number } {
  const separators = language === 'lisp' ? ` \t\n${ends}` : `,${ends}`;
  // A list of arguments: `[…]`, and Lua's tables `{…}` (`vim.system({"rm", "-rf", d})`).
  const close = code[i] === '[' && !(language === 'lua' && code[i + 1] === '[') ? ']' : code[i] === '{' && language === 'lua' ? '}' : undefined;
  if (close) {
    const list: (string | undefined)[] = [];
    let j = i + 1;
    for (;;) {
      j = skipBlanks(code, j);
      if (j >= code.length || code[j] === close) break;
      const from = j;
      const element = readItem(code, j, language, close);
      list.push(element.argument.joined || element.argument.interpolated ? undefined : element.argument.value);
      j = skipBlanks(code, element.end);
      if (code[j] === ',') j++;
      else if (code[j] !== close) j = skipToSeparator(code, j, close);
      if (j <= from) j = from + 1;
    }
    return { argument: { list }, end: j + 1 };
  }
  // R's vectors, `c("-rf", "~")`, are its lists.
  if (language === 'r' && code.startsWith('c(', i)) {
    const inner = readCodeArguments(code, i + 1, 'other');
    return { argument: { list: inner.items.map((item) => (item.joined || item.interpolated ? undefined : item.value)) }, end: inner.end };
  }
  const literal = readCodeLiteral(code, i, 'any', language);
  if (literal) {
    const after = skipBlanks(code, literal.end);
    const joined = after < code.length && !separators.includes(code[after] as string) && language !== 'lisp';
    const end = joined ? skipToSeparator(code, after, separators) : literal.end;
    if (literal.words) return { argument: { list: literal.words }, end };
    return { argument: { value: literal.value, interpolated: literal.interpolated, joined }, end };
  }
  const end = skipToSeparator(code, i, separators);
  const text = code.slice(i, end).trim();
  return { argument: { keyword: /^\w+\s*=(?!=)|^\{|^:\w+\s*=>|^\w+:\s/.test(text) || undefined }, end };
}

function skipBlanks(code: string, i: number): number {
  while (i < code.length && (code[i] === ' ' || code[i] === '\t' || code[i] === '\n' || code[i] === '\r')) i++;
  return i;
}

/** Past a token that is not a literal, to the next separator at depth 0 (literals and brackets skipped whole). */
function skipToSeparator(code: string, i: number, separators: string): number {
  let depth = 0;
  while (i < code.length) {
    const ch = code[i] as string;
    if (depth === 0 && separators.includes(ch)) return i;
    if (ch === '"' || ch === "'" || ch === '`') {
      const literal = readCodeLiteral(code, i);
      i = literal ? literal.end : i + 1;
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth === 0) return i;
      depth--;
    }
    i++;
  }
  return i;
}
