/** Paths as glob patterns: escaping, brace expansion, and matching one pattern against a path. */

// A path is kept as a glob pattern: unquoted `*`, `?`, `[…]`, `{…}` keep their meaning, quoted
// ones are escaped with a backslash. Patterns are matched component by component, case
// insensitively (macOS file systems are), so `~/.SSH` is `~/.ssh` and `~/.s*` may be too.

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

export function components(path: string): string[] {
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
export function everythingIn(pattern: string): string | undefined {
  const c = components(pattern);
  const last = c[c.length - 1];
  if (last === undefined || !namesEverything(last)) return undefined;
  return `/${c.slice(0, -1).join('/')}`;
}
