/**
 * Which finished commands Watch mode leaves out of its count. A failure the user caused on
 * purpose (Ctrl+C, Ctrl+Z) or one that answers a question (`grep -q`, `test`, `diff`: "no")
 * is not a sign of being stuck. Such a block neither counts toward a hint nor ends the
 * episode: `make` failing, `grep -q TODO src/x.c` saying no, `make` failing again is still
 * someone stuck on `make`. Only a success ends an episode.
 *
 * The command line is read with the safety classifier's bash parser (tree-sitter), so quotes,
 * lists, pipelines, subshells and `if`/`while`/`for`/`case` are seen as bash sees them.
 */
import type { Node } from 'web-tree-sitter';
import { analyzeTree, getShellParser, literalValue, type ShellCommand, type ShellParser } from '../safety/shellParser';

/** 130: SIGINT (Ctrl+C). 148: SIGTSTP (Ctrl+Z) — a suspended job, not a failure. */
const INTERRUPTED_EXIT_CODES = new Set([130, 148]);

/** Programs whose exit status 1 means "no" rather than "broken" (2 is their "trouble"). */
const QUESTION_PROGRAMS = new Set(['test', '[', '[[', 'diff', 'cmp']);
/** grep-likes answer a question only when told to be quiet. */
const QUIET_GREPS = new Set(['grep', 'egrep', 'fgrep', 'zgrep']);
/** Commands that do not fail in practice: `grep -q x f && echo found` failing is grep's "no". */
const NEVER_FAILING = new Set(['echo', 'printf', 'true', ':']);
/** A question program's "no". */
const ANSWER_NO = 1;
/** Lines judged, remembered: people repeat their commands. */
const MAX_REMEMBERED = 200;
/** A line longer than this is not parsed for a hint (its failure counts). */
const MAX_LINE_LENGTH = 4_000;

export function isInterruption(exitCode: number): boolean {
  return INTERRUPTED_EXIT_CODES.has(exitCode);
}

/** Judges finished command lines with the bash grammar, loaded in the background. */
export class ExpectedFailures {
  private parser: ShellParser | undefined;
  private readonly verdicts = new Map<string, boolean>();
  /** Settles once the grammar is loaded, or failed to load (then every failure counts). */
  readonly ready: Promise<void>;

  constructor(parser: Promise<ShellParser> = getShellParser()) {
    this.ready = parser.then(
      (loaded) => void (this.parser = loaded),
      () => undefined,
    );
  }

  /**
   * The line failed with `exitCode` only because a question program said "no": the status is
   * 1 and every command whose failure could have led to it (see failureSources) is `test`, `[`,
   * `[[`, `diff`, `cmp` or `grep -q`, apart from `echo`-likes. Until the grammar is loaded, or
   * when the line cannot be read, the failure counts: a missed hint costs less than a user left
   * alone in a loop the detector ignored.
   */
  isExpected(commandLine: string, exitCode: number): boolean {
    if (exitCode !== ANSWER_NO || !this.parser || commandLine.length > MAX_LINE_LENGTH) return false;
    const known = this.verdicts.get(commandLine);
    if (known !== undefined) return known;
    const verdict = judge(this.parser, commandLine);
    if (this.verdicts.size >= MAX_REMEMBERED) this.verdicts.delete(this.verdicts.keys().next().value!);
    this.verdicts.set(commandLine, verdict);
    return verdict;
  }
}

function judge(parser: ShellParser, commandLine: string): boolean {
  let tree;
  try {
    tree = parser.parse(commandLine);
  } catch {
    return false;
  }
  try {
    const root = tree.rootNode;
    if (root.hasError) return false;
    const sources = failureSources(root);
    if (!sources) return false;
    const commands = analyzeTree(root).commands;
    const deciding = sources.map((node) => commands.find((command) => command.startIndex === node.startIndex && command.endIndex === node.endIndex));
    if (deciding.some((command) => command === undefined)) return false;
    const failing = (deciding as ShellCommand[]).filter((command) => !NEVER_FAILING.has(programName(command) ?? ''));
    return failing.length > 0 && failing.every(asksAQuestion);
  } finally {
    tree.delete();
  }
}

/**
 * The simple commands (and `[[ ]]` / `[ ]` tests) of `node` that may have failed when it ends
 * with a failure; undefined when the line holds something this does not follow. Every
 * statement of a list counts (`make; test -f out` failing may be make's failure too), a
 * pipeline's status is its last stage's, and the conditions of `if` and `while` only choose
 * what runs: a failing `if test -f x; then cat x; fi` is cat's failure.
 */
function failureSources(node: Node): Node[] | undefined {
  switch (node.type) {
    case 'command':
    case 'test_command':
      return [node];
    case 'program':
    case 'subshell':
    case 'do_group':
    case 'else_clause':
    case 'list':
      return statementsSources(node, () => true);
    case 'compound_statement':
      // `(( … ))` arithmetic is a question too, but not one Watch mode is told about.
      return node.child(0)?.type === '((' ? undefined : statementsSources(node, () => true);
    case 'pipeline': {
      const stages = node.namedChildren.filter(isStatement);
      return stages.length > 0 ? failureSources(stages.at(-1)!) : undefined;
    }
    case 'negated_command':
    case 'redirected_statement': {
      const body = node.type === 'redirected_statement' ? node.childForFieldName('body') : node.namedChildren.find(isStatement);
      return body ? failureSources(body) : undefined;
    }
    case 'if_statement':
    case 'elif_clause':
      return statementsSources(node, (_child, field, afterThen) => afterThen && field !== 'condition');
    case 'for_statement':
    case 'while_statement': {
      const body = node.childForFieldName('body');
      return body ? failureSources(body) : undefined;
    }
    case 'case_statement':
      return statementsSources(node, (child) => child.type === 'case_item');
    case 'case_item':
      return statementsSources(node, (_child, field) => field !== 'value');
    case 'function_definition':
      return [];
    default:
      return undefined;
  }
}

/**
 * The union of failureSources over the named children `include` keeps (told each child's field
 * and whether a `then` came before it); a statement sent to the background (`&`) fails nothing.
 */
function statementsSources(node: Node, include: (child: Node, field: string | null, afterThen: boolean) => boolean): Node[] | undefined {
  const sources: Node[] = [];
  let afterThen = false;
  for (let index = 0; index < node.childCount; index++) {
    const child = node.child(index);
    if (!child) continue;
    if (!child.isNamed) {
      if (child.type === 'then') afterThen = true;
      continue;
    }
    if (child.type === 'comment' || !include(child, node.fieldNameForChild(index), afterThen)) continue;
    if (node.child(index + 1)?.type === '&') continue;
    const found = failureSources(child);
    if (!found) return undefined;
    sources.push(...found);
  }
  return sources;
}

function isStatement(node: Node | null): node is Node {
  return node !== null && node.type !== 'comment';
}

function programName(command: ShellCommand): string | undefined {
  if (command.kind === 'test') return '[[';
  const name = command.name ? literalValue(command.name) : undefined;
  return name?.split('/').at(-1);
}

function asksAQuestion(command: ShellCommand): boolean {
  const name = programName(command);
  if (name === undefined) return false;
  if (QUESTION_PROGRAMS.has(name)) return true;
  return QUIET_GREPS.has(name) && command.args.some((arg) => isQuietFlag(literalValue(arg) ?? ''));
}

function isQuietFlag(arg: string): boolean {
  if (arg === '--quiet' || arg === '--silent') return true;
  return /^-[A-Za-z]*q[A-Za-z]*$/.test(arg);
}
