/**
 * The walk over one command line's parse (see commandRisk.ts for the levels and decisions): every
 * command the parser finds, and every command nested in one (`sh -c`, `sudo`, `xargs`,
 * `find -exec` …, asked for by the rules through RuleEnv), becomes a part with a verdict from
 * rules/. What cannot be followed (an expansion as a command name, a parse error, too deep, out
 * of parse budget) is a part of its own, at least YELLOW.
 */
import { posix } from 'node:path';
import { BoundedParser } from './boundedParser';
import { trackCd } from './cdTracking';
import { ClassifiedParts } from './classifiedParts';
import type { RiskContext, RiskLevel, RiskResult } from './riskTypes';
import { CommandStreams } from './commandStreams';
import { findSelfCalls } from './forkBombs';
import { checkRedirectWrites } from './redirectWrites';
import { summarizeRisk } from './riskSummary';
import { ruleFor } from './rules';
import { parseOptions, toArg, type Arg } from './rules/arguments';
import { rmCatastrophe } from './rules/fileCommands';
import { checkArithmeticWords } from './rules/shellBuiltins';
import { isVersionQuery } from './rules/readOnly';
import type { PathContext } from './rules/pathContext';
import type { Invocation, RuleEnv, StdinSource } from './rules/rule';
import { Verdict, maxLevel } from './rules/verdict';
import { checkAssignments, checkDeclaration } from './shellVariables';
import { literalValue, type ShellAnalysis, type ShellCommand, type ShellParser, type Word } from './shellParser';

/** `sh -c "sh -c \"…\""`: deeper than this is not followed (and is YELLOW). */
const MAX_NESTING = 8;
/** Parse errors: how many times the text after an error is re-parsed on its own. */
const MAX_ERROR_REPARSES = 4;

/** A command given as a path in one of these is the command itself (`/bin/rm` is rm). */
const SYSTEM_BIN_DIRS: ReadonlySet<string> = new Set([
  '/bin', '/sbin', '/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin', '/opt/homebrew/bin', '/opt/homebrew/sbin', '/run/current-system/sw/bin', '/usr/libexec',
]);

function expandHome(path: string, home: string): string {
  return path.replace(/^(~|\$HOME|\$\{HOME\})(?=\/|$)/, home);
}

/** The context's paths made absolute and normalised: `~` and relative ones resolved. */
function pathContext(context: RiskContext, staticOutput: (body: string) => string | undefined): PathContext {
  const home = posix.resolve('/', context.home || '/');
  const cwd = posix.resolve(home, expandHome(context.cwd || home, home));
  const protectedPaths = context.protectedPaths.filter((p) => p.trim() !== '').map((p) => posix.resolve(cwd, expandHome(p, home)));
  const gitPager = context.environment?.GIT_PAGER;
  const remoteHost = context.remote?.host;
  return { cwd, home, protectedPaths, cwds: [cwd], cwdUnknown: false, staticOutput, gitPagerOff: gitPager === 'cat' || gitPager === '', credentialCopies: new Map(), ...(remoteHost !== undefined ? { remoteHost } : {}) };
}

/** One classification: make one, call `source` with the command line, then `result`. */
export class CommandClassifier implements RuleEnv {
  readonly paths: PathContext;
  private readonly parts = new ClassifiedParts();
  private readonly parse: BoundedParser;
  private readonly streams: CommandStreams;
  private depth = 0;
  private filesRead = false;

  constructor(parser: ShellParser, context: RiskContext, commandLength: number) {
    this.parse = new BoundedParser(parser, commandLength, () => {
      this.parts.add('(too complex)', 'yellow', 'the command is too complex to follow completely: it may do more than it shows');
    });
    this.paths = pathContext(context, (body) => this.streams.staticOutput(body));
    this.streams = new CommandStreams(this.parse, this.paths);
  }

  result(): RiskResult {
    const result = summarizeRisk(this.parts.list);
    const host = this.paths.remoteHost;
    return { ...result, ...(this.filesRead ? { readsFiles: true } : {}), ...(host !== undefined ? { host } : {}) };
  }

  // --- RuleEnv -----------------------------------------------------------------------------

  nestedSource(source: string, via: string, options: { fromConfig?: boolean } = {}): RiskLevel {
    if (this.depth >= MAX_NESTING) return this.parts.add(via, 'yellow', `commands nested too deeply to follow (${via})`);
    const carriedBy = this.parts.carriedBy;
    this.depth++;
    if (!options.fromConfig) this.parts.carriedBy = via;
    try {
      return this.source(source, via);
    } finally {
      this.depth--;
      this.parts.carriedBy = carriedBy;
    }
  }

  nestedArgv(argv: Arg[], via: string, stdin: StdinSource = { kind: 'terminal' }): RiskLevel {
    const [first, ...args] = argv;
    if (!first) return 'green';
    if (this.depth >= MAX_NESTING) return this.parts.add(via, 'yellow', `commands nested too deeply to follow (${via})`);
    const carriedBy = this.parts.carriedBy;
    this.depth++;
    this.parts.carriedBy = via;
    try {
      const slot = this.parts.reserve();
      const verdict = new Verdict();
      const name = first.value;
      const label = name === undefined ? this.unknownName(first.word, args, verdict) : this.invoke(name, args, stdin, verdict);
      this.parts.fill(slot, label, verdict);
      return this.parts.worstSince(slot);
    } finally {
      this.depth--;
      this.parts.carriedBy = carriedBy;
    }
  }

  unjudgedCode(via: string, code: string, reason: string): void {
    const carriedBy = this.parts.carriedBy;
    this.parts.carriedBy = via;
    // The code is in the label, so a session grant for one script or expression does not cover another.
    this.parts.add(`(${via}: ${code})`, 'yellow', reason);
    this.parts.carriedBy = carriedBy;
  }

  readsFiles(): void {
    this.filesRead = true;
  }

  fetchesCode(word: Word): boolean {
    return this.streams.fetchesCode(word);
  }

  // --- Walking -----------------------------------------------------------------------------

  /** Classifies shell source (`via` says where it came from, for reasons); returns the worst level found in it. */
  source(src: string, via: string): RiskLevel {
    const start = this.parts.length;
    const analysis = this.parse.analyze(src);
    if (!analysis) {
      if (!this.parse.exhausted) this.parts.add('(parse error)', 'yellow', `could not parse ${via}`);
      return maxLevel(this.parts.worstSince(start), 'yellow');
    }
    this.parseIssues(src, via, analysis);
    for (const call of findSelfCalls(analysis)) this.parts.add(call.name, call.level, call.reason);
    const functions = new Set(analysis.commands.flatMap((c) => (c.kind === 'function' && c.name && literalValue(c.name) !== undefined ? [literalValue(c.name) as string] : [])));
    for (const command of analysis.commands) this.command(command, analysis, functions);
    return this.parts.worstSince(start);
  }

  /** Parse errors never lower the level; the text after an error is read again on its own, so nothing hides behind one. */
  private parseIssues(src: string, via: string, analysis: ShellAnalysis): void {
    if (analysis.issues.length === 0) return;
    const shownIssue = analysis.issues[0]?.text.trim().slice(0, 40) ?? '';
    this.parts.add('(parse error)', 'yellow', `${via} does not parse cleanly${shownIssue ? ` near \`${shownIssue}\`` : ''}: it may do more than it shows`);
    if (this.depth >= MAX_NESTING) return;
    let reparsed = 0;
    for (const issue of analysis.issues) {
      if (issue.kind !== 'error' || reparsed >= MAX_ERROR_REPARSES) continue;
      const rest = src.slice(issue.startIndex + Math.max(issue.text.length, 1));
      if (rest.trim() === '' || rest.length >= src.length) continue;
      reparsed++;
      this.depth++;
      try {
        this.source(rest, `the text after a parse error`);
      } finally {
        this.depth--;
      }
    }
  }

  private command(cmd: ShellCommand, analysis: ShellAnalysis, functions: ReadonlySet<string>): void {
    const slot = this.parts.reserve();
    const verdict = new Verdict();
    let label = '';
    switch (cmd.kind) {
      case 'function':
        label = cmd.name?.text ?? '(function)';
        verdict.yellow(`defines the shell function ${label}`);
        break;
      case 'assignment':
        label = cmd.assignments.map((a) => `${a.name}=`).join(' ');
        checkAssignments(cmd, verdict, true, this);
        break;
      case 'declaration':
        label = cmd.name?.text ?? 'declare';
        checkDeclaration(cmd, verdict, label, this);
        break;
      case 'redirection':
        label = '(redirection)';
        verdict.green('only redirects');
        break;
      case 'test':
        label = cmd.name?.text ?? '[[';
        verdict.green('a test only reads');
        break;
      case 'simple':
        label = this.simple(cmd, analysis, verdict, functions);
        break;
      case 'arithmetic':
        label = '(arithmetic)';
        checkArithmeticWords(cmd.args.map(toArg), 'bash', verdict, this);
        break;
    }
    checkRedirectWrites(cmd, verdict, this.paths);
    this.streams.checkDownloadIntoProcessOutput(cmd, analysis, verdict);
    this.parts.fill(slot, label, verdict);
  }

  private simple(cmd: ShellCommand, analysis: ShellAnalysis, verdict: Verdict, functions: ReadonlySet<string>): string {
    checkAssignments(cmd, verdict, false, this);
    const args = cmd.args.map(toArg);
    if (!cmd.name || cmd.name.text === '') {
      verdict.yellow('a command the parser could not name');
      return '(unnamed)';
    }
    const name = literalValue(cmd.name);
    if (name === undefined) return this.unknownName(cmd.name, args, verdict);
    if (!cmd.inSubstitution) trackCd(name, args, this.paths);
    if (functions.has(name)) {
      // Its body is classified where it is defined; calling it adds nothing (and shadows any command of that name).
      verdict.green(`runs the shell function ${name} defined on this line`);
      return name;
    }
    return this.invoke(name, args, this.streams.stdinOf(cmd, analysis), verdict);
  }

  /** Classifies one command by name; returns the name to show. */
  private invoke(written: string, args: Arg[], stdin: StdinSource, out: Verdict): string {
    let name = written;
    if (written.includes('/')) {
      name = posix.basename(written);
      if (!SYSTEM_BIN_DIRS.has(posix.dirname(written))) out.yellow(`runs ${written}, a program outside the system directories`);
    }
    const inv: Invocation = { name, args, stdin };
    out.words = [name, ...args.map((arg) => arg.value ?? arg.text)];
    const rule = ruleFor(name);
    if (isVersionQuery(inv)) out.green(`${name} only prints its version or help`);
    else if (rule) rule(inv, out, this);
    else out.yellow(`${name} is not a command Tandem knows: it may change anything`);
    if (out.flags.length === 0) out.addFlags(parseOptions(args).display);
    return name;
  }

  /** `$CMD …`, `$(…) …`: the command is known only at run time. */
  private unknownName(word: Word, args: Arg[], out: Verdict): string {
    out.yellow(`the command name ${word.text} is known only at run time`);
    if (this.fetchesCode(word)) out.red(`runs what a download prints as a command (${word.text})`);
    const rm = rmCatastrophe(args, this);
    if (rm) out.red(`${word.text} is known only at run time, and if it is rm: ${rm}`);
    // `$SHELL -c '…'`: if it is a shell, that is what it runs.
    const c = args.findIndex((a) => a.value !== undefined && /^-[a-zA-Z]*c$/.test(a.value));
    const code = c >= 0 ? args[c + 1] : undefined;
    if (code?.value !== undefined) this.nestedSource(code.value, `${word.text} -c`);
    out.addFlags(parseOptions(args).display);
    return word.text;
  }
}
