/** The structured words of parse nodes: literal pieces (quotes and escapes resolved, `$'…'` decoded) and expansions kept as text. */
import type { Node } from 'web-tree-sitter';
import type { Assignment, Word, WordPart } from './shellSyntax';

export function assignmentFromNode(node: Node): Assignment {
  const name = node.childForFieldName('name')?.text ?? '';
  const valueNode = node.childForFieldName('value');
  return { name, value: valueNode ? wordFromNode(valueNode) : undefined, text: node.text };
}

/** The structured word of a node in argument (or command name) position. */
export function wordFromNode(node: Node): Word {
  const parts: WordPart[] = [];
  collectParts(node, false, parts, 0);
  return { text: node.text, parts: mergeLiterals(parts) };
}

function collectParts(node: Node, quoted: boolean, out: WordPart[], depth: number): void {
  if (depth > 100) {
    out.push({ type: 'unknown', text: node.text, quoted });
    return;
  }
  switch (node.type) {
    case 'word':
      if (quoted) out.push({ type: 'literal', value: node.text, quoted: true });
      else unescapeUnquoted(node.text, out);
      return;
    case 'number':
    case 'extglob_pattern':
    case 'regex':
    case 'test_operator':
    case 'variable_name':
    case 'file_descriptor':
    case 'brace_expression':
    case 'heredoc_start':
      out.push({ type: 'literal', value: node.text, quoted });
      return;
    case 'raw_string':
      out.push({ type: 'literal', value: node.text.slice(1, -1), quoted: true });
      return;
    case 'ansi_c_string':
      out.push({ type: 'literal', value: decodeAnsiC(node.text.slice(2, -1)), quoted: true });
      return;
    case 'string':
    case 'translated_string':
      for (const child of node.children) {
        if (!child) continue;
        if (!child.isNamed) {
          if (child.type !== '"' && child.type !== '$"' && child.type !== '$') out.push({ type: 'literal', value: child.text, quoted: true });
          continue;
        }
        if (child.type === 'string_content') out.push({ type: 'literal', value: unescapeDoubleQuoted(child.text), quoted: true });
        else if (child.type === 'string') collectParts(child, true, out, depth + 1);
        else collectParts(child, true, out, depth + 1);
      }
      return;
    case 'simple_expansion': {
      const name = node.namedChildren.find((c): c is Node => c !== null)?.text ?? '';
      out.push({ type: 'variable', name, text: node.text, quoted, guarded: false, plain: true });
      return;
    }
    case 'expansion': {
      const named = node.namedChildren.filter((c): c is Node => c !== null);
      const variable = named.find((c) => c.type === 'variable_name' || c.type === 'special_variable_name');
      const operator = node.childForFieldName('operator')?.text;
      const guarded = operator === ':?' || operator === '?';
      const plain = named.length === 1 && variable !== undefined && node.childCount === 3;
      out.push({ type: 'variable', name: variable?.text ?? '', text: node.text, quoted, guarded, plain });
      return;
    }
    case 'command_substitution': {
      const text = node.text;
      const body = text.startsWith('$(') ? text.slice(2, -1) : text.startsWith('`') ? text.slice(1, -1) : text;
      out.push({ type: 'substitution', kind: 'command', text, body, quoted });
      return;
    }
    case 'process_substitution': {
      const text = node.text;
      out.push({ type: 'substitution', kind: text.startsWith('>') ? 'process-out' : 'process-in', text, body: text.slice(2, -1), quoted });
      return;
    }
    case 'arithmetic_expansion':
      out.push({ type: 'arithmetic', text: node.text, quoted });
      return;
    case 'concatenation':
      for (const child of node.children) if (child) collectParts(child, quoted, out, depth + 1);
      return;
    case 'variable_assignment': {
      const name = node.childForFieldName('name')?.text ?? '';
      out.push({ type: 'literal', value: `${name}=`, quoted: false });
      const value = node.childForFieldName('value');
      if (value) collectParts(value, quoted, out, depth + 1);
      return;
    }
    default:
      if (!node.isNamed && node.childCount === 0) {
        // Punctuation the grammar split off a word (`$` of `$"…"`, braces …): literal text.
        out.push({ type: 'literal', value: node.text, quoted });
        return;
      }
      out.push({ type: 'unknown', text: node.text, quoted });
  }
}

/** `a\*b` → `a`, quoted `*`, `b`: an escaped character is literal, like a quoted one. */
function unescapeUnquoted(text: string, out: WordPart[]): void {
  let plain = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) {
      const next = text[i + 1] as string;
      i++;
      if (next === '\n') continue;
      if (plain) out.push({ type: 'literal', value: plain, quoted: false });
      plain = '';
      out.push({ type: 'literal', value: next, quoted: true });
      continue;
    }
    plain += c;
  }
  if (plain) out.push({ type: 'literal', value: plain, quoted: false });
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

const ANSI_C_SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

/** The value of `$'…'`. */
function decodeAnsiC(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (match, esc: string) => {
    const head = esc[0] as string;
    if (head === 'x' || head === 'u' || head === 'U') {
      const code = Number.parseInt(esc.slice(1), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    if (/[0-7]/.test(head)) return String.fromCharCode(Number.parseInt(esc, 8) & 0xff);
    if (head === 'c') return String.fromCharCode((esc.charCodeAt(1) ?? 64) & 0x1f);
    return ANSI_C_SIMPLE[head] ?? match;
  });
}

function mergeLiterals(parts: WordPart[]): WordPart[] {
  const out: WordPart[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (part.type === 'literal' && last?.type === 'literal' && last.quoted === part.quoted) {
      out[out.length - 1] = { ...last, value: last.value + part.value };
    } else if (!(part.type === 'literal' && part.value === '' && !part.quoted)) {
      out.push(part);
    }
  }
  return out;
}
