/**
 * The walk over a tree-sitter bash tree that finds every simple command, wherever it hides
 * (lists, pipelines, subshells, substitutions, function bodies …), with its words, assignments
 * and redirects, and every parse issue (see shellParser.ts).
 */
import type { Node } from 'web-tree-sitter';
import { literalValue, type ParseIssue, type Redirect, type ShellAnalysis, type ShellCommand, type ShellCommandKind, type Word } from './shellSyntax';
import { assignmentFromNode, wordFromNode } from './shellWords';

/** Every simple command and every parse issue of a tree. */
export function analyzeTree(root: Node): ShellAnalysis {
  const walker = new TreeWalker();
  walker.walk(root, { background: false, functions: [], inSubstitution: false }, 0);
  // The grammar flags errors it could not pin on a visited node (inside words, say): never lose them.
  if (walker.issues.length === 0 && root.hasError) walker.issues.push({ kind: 'error', text: root.text.slice(0, 200), startIndex: root.startIndex });
  return { commands: walker.commands, issues: walker.issues };
}

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
