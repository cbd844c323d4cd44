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
 *
 * Files: here, loading and parsing · shellSyntax (what a parse finds) · shellTreeWalker (the walk
 * over the tree) · shellWords (the structured words of nodes).
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import type { ShellAnalysis } from './shellSyntax';
import { analyzeTree } from './shellTreeWalker';

export type { Assignment, ParseIssue, Redirect, ShellAnalysis, ShellCommand, ShellCommandKind, Word, WordPart } from './shellSyntax';
export { literalValue } from './shellSyntax';
export { analyzeTree } from './shellTreeWalker';

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
