/**
 * A real shell parse for the command risk classifier: the tree-sitter bash grammar (WASM, so
 * no native module), loaded once, and a walker that finds every simple command in a command
 * line, wherever it hides: `&&`, `||`, `;`, `&`, pipelines, subshells, brace groups, `$( )`,
 * backticks, `<( )` / `>( )`, if/while/for/case bodies, function bodies, heredoc pipelines.
 *
 * Words keep their structure (literal pieces, quoted or not, and expansions as text) so the
 * classifier can decide what is known before the shell runs and what is not. Unparseable input
 * is reported as parse issues, never dropped: whatever the grammar could not place must not
 * make a command look safer.
 *
 * Plain Node, no Electron. The grammar file is resolved from node_modules at run time (the
 * engine bundle keeps dependencies external), so it works under Vitest and from out/main/.
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

/** One piece of a shell word. */
export type WordPart =
  /** Text the shell takes as it is (escapes and quotes already removed). Unquoted text is subject to globbing, brace expansion and `~`. */
  | { type: 'literal'; value: string; quoted: boolean }
  /**
   * `$name`, `${name}`, `${name:?msg}` … `guarded` when the shell stops on an unset/empty
   * value (`:?`, `?`); `plain` when the expansion is the variable's value and nothing else.
   */
  | { type: 'variable'; name: string; text: string; quoted: boolean; guarded: boolean; plain: boolean }
  /** `$( )`, backticks, `<( )`, `>( )`: `body` is the inner source. */
  | { type: 'substitution'; kind: 'command' | 'process-in' | 'process-out'; text: string; body: string; quoted: boolean }
  /** `$(( ))` */
  | { type: 'arithmetic'; text: string; quoted: boolean }
  /** Anything whose value cannot be known before run time and fits no case above (arrays …). */
  | { type: 'unknown'; text: string; quoted: boolean };

export interface Word {
  /** The source text, as typed. */
  text: string;
  parts: WordPart[];
}

export interface Assignment {
  name: string;
  /** Undefined for `name=` (empty value). */
  value: Word | undefined;
  text: string;
}

export interface Redirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `>&`, `<&`, `>&-`, `<<`, `<<-`, `<<<` … */
  operator: string;
  /** The file descriptor written before the operator (`2>`), when there is one. */
  fd?: string;
  /** The file (or fd number for `>&2`); the word for a here-string. Undefined for heredocs and `>&-`. */
  target?: Word;
  /** The body of a heredoc; `quoted` when the delimiter was quoted (no expansion in the body). */
  heredoc?: { body: string; quoted: boolean };
  text: string;
}

export type ShellCommandKind =
  /** `name args…` with optional leading assignments and redirections. */
  | 'simple'
  /** `export`, `declare`, `local`, `readonly`, `typeset`, `unset`: `name` is the keyword. */
  | 'declaration'
  /** Assignments alone (`A=1 B=2`): they change the shell's own variables. */
  | 'assignment'
  /** Redirections of a compound statement (`{ …; } > f`, `while …; done < f`) or alone (`> f`). */
  | 'redirection'
  /** `[[ … ]]`, `[ … ]` as syntax. */
  | 'test'
  /** `name() { … }`: `name` is the function name; the body's commands are yielded separately. */
  | 'function'
  /**
   * A quoted string that bash evaluates as arithmetic (in `(( ))`, `$(( ))`, `[[ ]]`, a subscript) and
   * that holds a `$( )` or backticks the quotes hid from the parse: bash runs it (`(( 'a[$(cmd)]' ))`).
   * `args` is that string.
   */
  | 'arithmetic';

export interface ShellCommand {
  kind: ShellCommandKind;
  text: string;
  startIndex: number;
  endIndex: number;
  /** The command word; undefined when there is none (assignments or redirections alone). */
  name?: Word;
  args: Word[];
  assignments: Assignment[];
  redirects: Redirect[];
  /** Set when the command is (inside) a stage of a pipeline; ids are unique within one parse. */
  pipeline?: { id: number; stage: number };
  /** Runs in the background (`&` after it or after an enclosing statement). */
  background: boolean;
  /** Names of the function definitions it is written inside, outermost first. */
  functions: string[];
  /** Inside `$( )`, backticks or `<( )` / `>( )`. */
  inSubstitution: boolean;
}

export interface ParseIssue {
  /** The source text the grammar could not place (or that is missing, like a closing quote). */
  text: string;
  startIndex: number;
  kind: 'error' | 'missing' | 'too-deep';
}

export interface ShellAnalysis {
  commands: ShellCommand[];
  issues: ParseIssue[];
}

export interface ParseOptions {
  /** Give up after this many milliseconds (throws ParseTimeoutError). Default: DEFAULT_PARSE_TIMEOUT_MS. */
  timeoutMs?: number;
}

/** Error recovery on long garbage is slow (superlinear): a parse that takes too long is abandoned. */
export const DEFAULT_PARSE_TIMEOUT_MS = 500;

export class ParseTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`parsing took longer than ${timeoutMs} ms and was abandoned`);
    this.name = 'ParseTimeoutError';
  }
}

export interface ShellParser {
  /** The raw tree-sitter tree. The caller must call `tree.delete()` when done. */
  parse(source: string, options?: ParseOptions): Tree;
  /** Parse, walk and free the tree: every simple command plus every parse issue. */
  analyze(source: string, options?: ParseOptions): ShellAnalysis;
}

let loading: Promise<ShellParser> | undefined;

/** The absolute path of the bash grammar, resolved like any dependency of the running module. */
export function bashGrammarPath(): string {
  return createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
}

/** Loads the grammar once (the first call starts it; later calls share the same promise). */
export function getShellParser(): Promise<ShellParser> {
  loading ??= loadShellParser().catch((error: unknown) => {
    loading = undefined; // let a later call retry
    throw new Error(`could not load the bash grammar (${bashGrammarPath()}): ${String(error)}`);
  });
  return loading;
}

async function loadShellParser(): Promise<ShellParser> {
  await Parser.init();
  const bash = await Language.load(bashGrammarPath());
  const parser = new Parser();
  parser.setLanguage(bash);
  const parse = (source: string, options: ParseOptions = {}): Tree => {
    const timeoutMs = options.timeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS;
    const deadline = performance.now() + timeoutMs;
    let cancelled = false;
    // Returning true from the progress callback cancels the parse (the typings say void).
    const tree = parser.parse(source, null, { progressCallback: () => (cancelled = performance.now() > deadline) });
    if (!tree) {
      parser.reset(); // a cancelled parse would otherwise be resumed by the next call
      throw cancelled ? new ParseTimeoutError(timeoutMs) : new Error('the bash parser returned no tree');
    }
    return tree;
  };
  return {
    parse,
    analyze(source, options) {
      const tree = parse(source, options);
      try {
        return analyzeTree(tree.rootNode);
      } finally {
        tree.delete();
      }
    },
  };
}

/** `parseShell(source)`: the tree for one command line. The caller must `tree.delete()` it. */
export async function parseShell(source: string, options?: ParseOptions): Promise<Tree> {
  return (await getShellParser()).parse(source, options);
}

/** Every simple command in a parse tree, in source order. */
export function* walkCommands(root: Node): Generator<ShellCommand> {
  yield* analyzeTree(root).commands;
}

/** Every simple command and every parse issue of a tree. */
export function analyzeTree(root: Node): ShellAnalysis {
  const walker = new TreeWalker();
  walker.walk(root, { background: false, functions: [], inSubstitution: false }, 0);
  // The grammar flags errors it could not pin on a visited node (inside words, say): never lose them.
  if (walker.issues.length === 0 && root.hasError) walker.issues.push({ kind: 'error', text: root.text.slice(0, 200), startIndex: root.startIndex });
  return { commands: walker.commands, issues: walker.issues };
}

/** The text of a word with every known-at-parse-time piece resolved, or undefined when some piece is an expansion. */
export function literalValue(word: Word): string | undefined {
  let out = '';
  for (const part of word.parts) {
    if (part.type !== 'literal') return undefined;
    out += part.value;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

interface WalkContext {
  pipeline?: { id: number; stage: number };
  background: boolean;
  functions: string[];
  inSubstitution: boolean;
  /** Inside `(( ))`, `$(( ))`, `[[ ]]`, a subscript or a C-style for: quoted text may be evaluated as arithmetic. */
  arithmetic?: boolean;
}

/** Deeper nesting than this is reported as an issue instead of walked (stack safety). */
const MAX_DEPTH = 400;

const DECLARATION_KEYWORDS = new Set(['export', 'declare', 'local', 'readonly', 'typeset', 'unset']);

class TreeWalker {
  readonly commands: ShellCommand[] = [];
  readonly issues: ParseIssue[] = [];
  private nextPipeline = 1;
  /** Redirections the grammar put on a whole list or pipeline, waiting for its last statement (by node id). */
  private readonly pendingRedirects = new Map<number, { redirects: Redirect[]; args: Word[] }>();

  walk(node: Node, ctx: WalkContext, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.issues.push({ kind: 'too-deep', text: node.text.slice(0, 200), startIndex: node.startIndex });
      return;
    }
    if (node.isMissing) {
      this.issues.push({ kind: 'missing', text: node.type, startIndex: node.startIndex });
      return;
    }
    const pending = this.pendingRedirects.get(node.id);
    if (pending) {
      this.pendingRedirects.delete(node.id);
      if (node.type === 'command') {
        this.commands.push(this.simpleCommand(node, ctx, pending.redirects, pending.args));
        this.walkCommandParts(node, ctx, depth);
        return;
      }
      this.commands.push({ ...this.base('redirection', node, ctx), redirects: pending.redirects, args: pending.args });
    }
    switch (node.type) {
      case 'ERROR':
        this.issues.push({ kind: 'error', text: node.text, startIndex: node.startIndex });
        this.walkChildren(node, ctx, depth);
        return;
      case 'command':
        this.commands.push(this.simpleCommand(node, ctx, []));
        this.walkCommandParts(node, ctx, depth);
        return;
      case 'redirected_statement':
        this.redirectedStatement(node, ctx, depth);
        return;
      case 'declaration_command':
      case 'unset_command':
        this.commands.push(this.declaration(node, ctx));
        this.walkCommandParts(node, ctx, depth);
        return;
      case 'variable_assignment':
        this.commands.push(this.assignmentsOnly(node, ctx));
        this.walkChildren(node, ctx, depth);
        return;
      case 'variable_assignments':
        this.commands.push(this.assignmentsOnly(node, ctx));
        this.walkCommandParts(node, ctx, depth);
        return;
      case 'test_command':
        this.commands.push(this.testCommand(node, ctx));
        this.walkChildren(node, { ...ctx, arithmetic: true }, depth);
        return;
      case 'arithmetic_expansion':
      case 'subscript':
      case 'c_style_for_statement':
        this.walkChildren(node, { ...ctx, arithmetic: true }, depth);
        return;
      case 'compound_statement':
        this.walkChildren(node, node.child(0)?.type === '((' ? { ...ctx, arithmetic: true } : ctx, depth);
        return;
      case 'raw_string':
      case 'ansi_c_string':
      case 'string':
        if (ctx.arithmetic) this.hiddenArithmetic(node, ctx);
        this.walkChildren(node, ctx, depth);
        return;
      case 'function_definition': {
        const nameNode = node.childForFieldName('name');
        const name = nameNode ? wordFromNode(nameNode) : { text: '', parts: [] };
        this.commands.push({ ...this.base('function', node, ctx), name });
        const inner = { ...ctx, functions: [...ctx.functions, literalValue(name) ?? name.text] };
        this.walkChildren(node, inner, depth);
        return;
      }
      case 'pipeline':
        this.pipeline(node, ctx, depth, this.nextPipeline++, 0);
        return;
      case 'command_substitution':
      case 'process_substitution':
        this.walkChildren(node, { background: false, functions: ctx.functions, inSubstitution: true }, depth);
        return;
      case 'comment':
        return;
      default:
        this.walkChildren(node, ctx, depth);
    }
  }

  /**
   * The children of a command-like node: its assignments were already recorded on the command
   * itself, so only what runs inside them (`A=$(…) cmd`) is walked, not the assignment again.
   */
  private walkCommandParts(node: Node, ctx: WalkContext, depth: number): void {
    for (const child of node.children) {
      if (!child) continue;
      if (child.type === 'variable_assignment') this.walkChildren(child, ctx, depth + 1);
      else this.walk(child, ctx, depth + 1);
    }
  }

  private walkChildren(node: Node, ctx: WalkContext, depth: number): void {
    const children = node.children;
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (!child) continue;
      const next = children[i + 1];
      const background = ctx.background || (next !== null && next !== undefined && !next.isNamed && next.type === '&');
      this.walk(child, background === ctx.background ? ctx : { ...ctx, background }, depth + 1);
    }
  }

  /** Stages are separated by `|` / `|&` tokens; a stage may itself be any statement. */
  private pipeline(node: Node, ctx: WalkContext, depth: number, id: number, firstStage: number): void {
    let stage = firstStage;
    for (const child of node.children) {
      if (!child) continue;
      if (!child.isNamed && (child.type === '|' || child.type === '|&')) {
        stage++;
        continue;
      }
      this.walk(child, { ...ctx, pipeline: { id, stage } }, depth + 1);
    }
  }

  private redirectedStatement(node: Node, ctx: WalkContext, depth: number): void {
    const body = node.childForFieldName('body');
    const redirectNodes = node.childrenForFieldName('redirect').filter((n): n is Node => n !== null);
    // `cat <<EOF | sh`: the grammar hangs the rest of the pipeline inside the heredoc redirect.
    const heredocPipeline = redirectNodes
      .filter((r) => r.type === 'heredoc_redirect')
      .flatMap((r) => r.namedChildren.filter((c): c is Node => c !== null && c.type === 'pipeline'))[0];
    const pipelineId = heredocPipeline ? this.nextPipeline++ : undefined;
    const bodyCtx: WalkContext = pipelineId !== undefined ? { ...ctx, pipeline: { id: pipelineId, stage: 0 } } : ctx;

    const redirects: Redirect[] = [];
    const extraArgs: Word[] = [];
    for (const r of redirectNodes) collectRedirect(r, redirects, extraArgs);

    const target = body ? lastStatement(body) : undefined;
    if (body && target && target.id !== body.id) {
      // `a && b > f`, `a | b > f`: the grammar hangs the redirect on the whole list or pipeline,
      // but bash gives it to the last command only (and `a` runs before the file is opened).
      this.pendingRedirects.set(target.id, { redirects, args: extraArgs });
      this.walk(body, bodyCtx, depth + 1);
      this.pendingRedirects.delete(target.id);
    } else if (body && body.type === 'command') {
      this.commands.push(this.simpleCommand(body, bodyCtx, redirects, extraArgs));
      this.walkCommandParts(body, bodyCtx, depth + 1);
    } else {
      this.commands.push({ ...this.base('redirection', node, bodyCtx), redirects, args: extraArgs });
      if (body) this.walk(body, bodyCtx, depth + 1);
    }
    for (const r of redirectNodes) {
      for (const child of r.children) {
        if (!child) continue;
        // Nodes are fresh wrapper objects on every access: compare ids, not references.
        if (heredocPipeline && pipelineId !== undefined && child.id === heredocPipeline.id) this.pipeline(child, ctx, depth + 2, pipelineId, 0);
        else if (child.type !== 'file_redirect' || r.type !== 'heredoc_redirect') this.walk(child, ctx, depth + 2);
        else this.walkChildren(child, ctx, depth + 2);
      }
    }
  }

  private base(kind: ShellCommandKind, node: Node, ctx: WalkContext): ShellCommand {
    return {
      kind,
      text: node.text,
      startIndex: node.startIndex,
      endIndex: node.endIndex,
      args: [],
      assignments: [],
      redirects: [],
      pipeline: ctx.pipeline,
      background: ctx.background,
      functions: ctx.functions,
      inSubstitution: ctx.inSubstitution,
    };
  }

  private simpleCommand(node: Node, ctx: WalkContext, outerRedirects: Redirect[], outerArgs: Word[] = []): ShellCommand {
    const command = this.base('simple', node, ctx);
    const redirects: Redirect[] = [];
    const args: Word[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (field === 'name') {
        const wordNode = child.namedChildren.find((c): c is Node => c !== null) ?? child;
        command.name = wordFromNode(wordNode);
      } else if (field === 'argument') {
        args.push(wordFromNode(child));
      } else if (child.type === 'variable_assignment') {
        command.assignments.push(assignmentFromNode(child));
      } else if (isRedirectNode(child)) {
        collectRedirect(child, redirects, args);
      }
    }
    command.args = [...args, ...outerArgs];
    command.redirects = [...redirects, ...outerRedirects];
    return command;
  }

  private declaration(node: Node, ctx: WalkContext): ShellCommand {
    const command = this.base('declaration', node, ctx);
    const keyword = node.child(0);
    command.name = { text: keyword?.text ?? '', parts: [{ type: 'literal', value: keyword?.text ?? '', quoted: false }] };
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'variable_assignment') command.assignments.push(assignmentFromNode(child));
      command.args.push(wordFromNode(child));
    }
    if (!DECLARATION_KEYWORDS.has(command.name.text)) command.kind = 'simple';
    return command;
  }

  private assignmentsOnly(node: Node, ctx: WalkContext): ShellCommand {
    const command = this.base('assignment', node, ctx);
    const nodes = node.type === 'variable_assignment' ? [node] : node.namedChildren.filter((c): c is Node => c?.type === 'variable_assignment');
    command.assignments = nodes.map(assignmentFromNode);
    return command;
  }

  /** A quoted string in an arithmetic context whose quotes hide a `$( )` from the parse (see the `arithmetic` kind). */
  private hiddenArithmetic(node: Node, ctx: WalkContext): void {
    const word = wordFromNode(node);
    const hidden = word.parts.map((p) => (p.type === 'literal' ? p.value : '')).join('');
    if (!/\$\(|`/.test(hidden)) return;
    this.commands.push({ ...this.base('arithmetic', node, ctx), args: [{ text: node.text, parts: [{ type: 'literal', value: hidden, quoted: true }] }] });
  }

  private testCommand(node: Node, ctx: WalkContext): ShellCommand {
    const command = this.base('test', node, ctx);
    const open = node.child(0)?.text ?? '[[';
    command.name = { text: open, parts: [{ type: 'literal', value: open, quoted: false }] };
    return command;
  }
}

/** The statement a trailing redirection belongs to: the last one of a list or pipeline, through `!`. */
function lastStatement(node: Node): Node {
  let current = node;
  while (current.type === 'list' || current.type === 'pipeline' || current.type === 'negated_command') {
    const named = current.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
    const last = named[named.length - 1];
    if (!last) break;
    current = last;
  }
  return current;
}

function isRedirectNode(node: Node): boolean {
  return node.type === 'file_redirect' || node.type === 'heredoc_redirect' || node.type === 'herestring_redirect';
}

/** Appends the redirect(s) a redirect node describes; `echo a > f b`: `b` is an argument, not a target. */
function collectRedirect(node: Node, redirects: Redirect[], args: Word[]): void {
  if (node.type === 'file_redirect') {
    let operator = '';
    let fd: string | undefined;
    const destinations: Word[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (field === 'descriptor') fd = child.text;
      else if (field === 'destination') destinations.push(wordFromNode(child));
      else if (!child.isNamed || child.type === 'ERROR') operator += child.text; // `<>` has no rule: the grammar leaves `>` as an error
    }
    const [target, ...rest] = destinations;
    redirects.push({ operator, fd, target, text: node.text });
    args.push(...rest);
  } else if (node.type === 'heredoc_redirect') {
    let operator = '<<';
    let start = '';
    let body = '';
    for (const child of node.children) {
      if (!child) continue;
      if (child.type === '<<' || child.type === '<<-') operator = child.type;
      else if (child.type === 'heredoc_start') start = child.text;
      else if (child.type === 'heredoc_body') body = child.text;
      else if (child.type === 'file_redirect') collectRedirect(child, redirects, args);
    }
    redirects.push({ operator, heredoc: { body, quoted: /['"\\]/.test(start) }, text: node.text });
  } else if (node.type === 'herestring_redirect') {
    const value = node.namedChildren.find((c): c is Node => c !== null);
    redirects.push({ operator: '<<<', target: value ? wordFromNode(value) : undefined, text: node.text });
  }
}

function assignmentFromNode(node: Node): Assignment {
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
export function decodeAnsiC(text: string): string {
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
