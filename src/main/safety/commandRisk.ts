/**
 * Command risk levels from a real bash parse (issue 4, "Risk levels from a real parse").
 *
 * GREEN: read-only. YELLOW: changes something, or unknown. RED: destructive or
 * privilege-raising. The command line is parsed with the tree-sitter bash grammar
 * (shellParser.ts); every simple command it contains — in lists, pipelines, subshells, `$( )`,
 * backticks, `<( )`, function bodies, and inside `sh -c`, `eval`, `sudo`, `xargs`, `find -exec`,
 * `env`, `ssh host …` and the like — becomes one part, classified by the rules in
 * rules/, and the worst part wins. Whatever the parse cannot see through (an
 * expansion as a command name, a parse error, nesting too deep, a command too long to parse in
 * time) is at least YELLOW.
 *
 * Decisions where the issue left a choice:
 * - curl/wget are YELLOW even to stdout: a request can carry data out (`curl …?k=$(cat key)`) and
 *   have effects on the other side. ping/dig/nslookup/host are GREEN only with literal arguments.
 * - A force push (`-f`, `--force`, `--force-with-lease`, `+refspec`, `--mirror`) to main/master
 *   (also trunk, production, prod, release) is RED, and so is one that does not name its branch
 *   (`git push -f`, `git push -f origin`, `… HEAD`): the current branch cannot be known from the
 *   command, and it may be main. Naming a feature branch makes it YELLOW.
 * - git reset --hard, clean -f, checkout -- ., restore ., stash drop/clear, branch -D: YELLOW with
 *   a reason saying what is lost.
 * - history -c: YELLOW. crontab -r: RED (no confirmation, no undo). `:> /etc/…`, any write or
 *   delete under /etc, /usr (not /usr/local), /bin, /sbin, /lib*, /boot, /proc, /sys, /System,
 *   /Library, /var/lib, /var/db: RED.
 * - docker: prunes that include volumes (`system prune --volumes`, `volume prune`) are RED (volumes
 *   hold databases); `system prune -a` alone is YELLOW. `run --privileged`, host namespaces,
 *   `--cap-add=SYS_ADMIN|ALL`, raw devices, mounting `/`, a system directory or the docker socket: RED.
 * - rm -r (with or without -f) of `/`, `~`, the cwd, an ancestor of any of them, a system directory,
 *   a home directory, a protected path, or everything in one of those (`*`, `.*`, `/*`, `~/*`): RED,
 *   also when an unguarded expansion being empty would make it so (`rm -rf "$DIR/"*`).
 * - find -delete (or -exec rm …): RED from `/` or a system directory; without name/time/size tests
 *   it is `rm -r` of its start paths; with tests, YELLOW elsewhere.
 * - chmod/chown/chgrp -R on the same catastrophic targets, or on a protected path: RED.
 * - Defining a shell function or alias, setting shell variables: YELLOW (they change the session).
 * - A command name that is a path outside the system bin directories is never GREEN.
 */
import { posix } from 'node:path';
import { ruleFor } from './rules';
import { parseOptions, toArg, type Arg } from './rules/arguments';
import { rmCatastrophe } from './rules/fileCommands';
import { INTERPRETERS, interpreterName } from './rules/interpreters';
import { DOWNLOADERS } from './rules/network';
import { checkPath } from './rules/pathChecks';
import { unescapeGlob } from './rules/pathPatterns';
import { isVersionQuery } from './rules/readOnly';
import type { Invocation, PathContext, RuleEnv, StdinSource } from './rules/rule';
import { SHELLS } from './rules/shells';
import { LEVEL_RANK, Verdict, maxLevel } from './rules/verdict';
import { resolveWord } from './rules/wordPaths';
import { performance } from 'node:perf_hooks';
import { ParseTimeoutError, getShellParser, literalValue, type ShellAnalysis, type ShellCommand, type ShellParser, type Word } from './shellParser';

export type RiskLevel = 'green' | 'yellow' | 'red';

export interface ClassifiedPart {
  command: string;
  flags: string[];
  writes: string[];
  /** Protected paths (absolute, as given in the context) this part would change. */
  protectedHits: string[];
  /** The command's words (literal arguments by value; others as written). */
  words: string[];
  level: RiskLevel;
  reason: string;
}

export interface RiskContext {
  cwd: string;
  home: string;
  protectedPaths: string[];
}

export interface RiskResult {
  level: RiskLevel;
  reasons: string[];
  parts: ClassifiedPart[];
}

export async function classifyCommand(command: string, context: RiskContext): Promise<RiskResult> {
  return classifyWithParser(await getShellParser(), command, context);
}

/** The same, synchronously, with a parser already loaded (benchmarks, batch checks). */
export function classifyWithParser(parser: ShellParser, command: string, context: RiskContext): RiskResult {
  const classifier = new Classifier(parser, context, PARSE_BUDGET_FLOOR + PARSE_BUDGET_FACTOR * command.length);
  classifier.source(command, 'the command');
  return classifier.result();
}

// ---------------------------------------------------------------------------------------------

/** `sh -c "sh -c \"…\""`: deeper than this is not followed (and is YELLOW). */
const MAX_NESTING = 8;
/** Parse errors: how many times the text after an error is re-parsed on its own. */
const MAX_ERROR_REPARSES = 4;
/** Parses per classification (nested sources, substitution bodies, re-parses after errors): past it, YELLOW. */
const MAX_ANALYSES = 200;
/** Characters parsed per classification, as a multiple of the command's length (plus a floor): error recovery on long garbage is slow. */
const PARSE_BUDGET_FACTOR = 6;
const PARSE_BUDGET_FLOOR = 4000;
/** Time for one classification, all parses included: past it, what is left is not followed (YELLOW). */
const CLASSIFY_DEADLINE_MS = 250;

/** A command given as a path in one of these is the command itself (`/bin/rm` is rm). */
const SYSTEM_BIN_DIRS: ReadonlySet<string> = new Set([
  '/bin', '/sbin', '/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin', '/opt/homebrew/bin', '/opt/homebrew/sbin', '/run/current-system/sw/bin', '/usr/libexec',
]);

/** Wrappers that may hide a downloader (`sudo curl …`). */
const DOWNLOAD_WRAPPERS: ReadonlySet<string> = new Set(['sudo', 'doas', 'env', 'command', 'builtin', 'nice', 'ionice', 'timeout', 'nohup', 'stdbuf', 'time', 'exec', 'busybox', 'proxychains', 'proxychains4', 'torsocks']);

/** Variables whose value some program runs as a command. */
const CODE_VARIABLES = /^(PROMPT_COMMAND|BASH_ENV|ENV|PAGER|MANPAGER|GIT_PAGER|EDITOR|VISUAL|GIT_EDITOR|GIT_SSH|GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|SUDO_ASKPASS|LESSOPEN|LESSCLOSE|PS[0-4]|\w*_COMMAND)$/;
/** Variables that change what programs load or find. */
const LOADER_VARIABLES = /^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|PATH|IFS|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|SHELLOPTS|BASHOPTS|GIT_CONFIG\w*|GIT_DIR|GIT_WORK_TREE|ZDOTDIR|XDG_CONFIG_HOME|BASH_FUNC_\S+|CDPATH|GLOBIGNORE)$/;

function expandHome(path: string, home: string): string {
  return path.replace(/^(~|\$HOME|\$\{HOME\})(?=\/|$)/, home);
}

function commandName(word: string): string {
  return word.includes('/') ? posix.basename(word) : word;
}

class Classifier implements RuleEnv {
  readonly parts: ClassifiedPart[] = [];
  readonly paths: PathContext;
  private depth = 0;
  private readonly fetchCache = new Map<string, boolean>();
  private readonly outputCache = new Map<string, string | undefined>();
  private analyses = 0;
  private parsedChars = 0;
  private readonly parseBudget: number;
  private readonly deadline = performance.now() + CLASSIFY_DEADLINE_MS;
  /** The parse budget ran out: the rest is not followed (and the result is at least YELLOW). */
  private exhausted = false;

  constructor(
    private readonly parser: ShellParser,
    context: RiskContext,
    parseBudget: number,
  ) {
    this.parseBudget = parseBudget;
    const home = posix.resolve('/', context.home || '/');
    const cwd = posix.resolve(home, expandHome(context.cwd || home, home));
    const protectedPaths = context.protectedPaths.filter((p) => p.trim() !== '').map((p) => posix.resolve(cwd, expandHome(p, home)));
    this.paths = { cwd, home, protectedPaths, cwds: [cwd], cwdUnknown: false, staticOutput: (body) => this.staticOutput(body) };
  }

  result(): { level: RiskLevel; reasons: string[]; parts: ClassifiedPart[] } {
    let level: RiskLevel = 'green';
    for (const part of this.parts) level = maxLevel(level, part.level);
    const reasons: string[] = [];
    const ranked = [...this.parts].filter((p) => level === 'green' || p.level !== 'green').sort((a, b) => LEVEL_RANK[b.level] - LEVEL_RANK[a.level]);
    for (const part of ranked) {
      for (const reason of part.reason.split('; ')) {
        const plain = part.command === '' || part.command.startsWith('(') || namesCommand(reason, part.command);
        const name = /^\w/.test(part.command) ? part.command : `'${part.command}'`;
        const sentence = plain ? reason : `${name}: ${reason}`;
        if (!reasons.includes(sentence)) reasons.push(sentence);
      }
    }
    if (reasons.length === 0) reasons.push('nothing to run');
    return { level, reasons, parts: this.parts };
  }

  // --- RuleEnv -----------------------------------------------------------------------------

  nestedSource(source: string, via: string): RiskLevel {
    if (this.depth >= MAX_NESTING) return this.addPart(via, 'yellow', `commands nested too deeply to follow (${via})`);
    this.depth++;
    try {
      return this.source(source, via);
    } finally {
      this.depth--;
    }
  }

  nestedArgv(argv: Arg[], via: string, stdin: StdinSource = { kind: 'terminal' }): RiskLevel {
    const [first, ...args] = argv;
    if (!first) return 'green';
    if (this.depth >= MAX_NESTING) return this.addPart(via, 'yellow', `commands nested too deeply to follow (${via})`);
    this.depth++;
    try {
      const slot = this.reserve();
      const verdict = new Verdict();
      const name = first.value;
      const label = name === undefined ? this.unknownName(first.word, args, verdict) : this.invoke(name, args, stdin, verdict);
      this.fill(slot, label, verdict);
      return this.worstSince(slot);
    } finally {
      this.depth--;
    }
  }

  fetchesCode(word: Word): boolean {
    for (const part of word.parts) {
      if (part.type !== 'substitution') continue;
      let found = this.fetchCache.get(part.body);
      if (found === undefined) {
        this.fetchCache.set(part.body, false);
        const analysis = this.analyze(part.body);
        found = analysis !== undefined && analysis.commands.some((c) => this.isDownloader(c) || c.args.some((a) => this.fetchesCode(a)));
        this.fetchCache.set(part.body, found);
      }
      if (found) return true;
    }
    return false;
  }

  /** The output of `$(echo …)`, `$(printf …)`, `$(pwd)`: known before run time, so `rm -rf $(echo /)` is `rm -rf /`. */
  private staticOutput(body: string): string | undefined {
    if (this.outputCache.has(body)) return this.outputCache.get(body);
    this.outputCache.set(body, undefined);
    const analysis = this.analyze(body);
    let output: string | undefined;
    const only = analysis && analysis.issues.length === 0 && analysis.commands.length === 1 ? analysis.commands[0] : undefined;
    if (analysis && only && only.kind === 'simple' && only.redirects.length === 0 && only.assignments.length === 0) {
      const name = only.name ? literalValue(only.name) : undefined;
      if (name === 'pwd' && only.args.length === 0) output = this.paths.cwd;
      else output = this.stdoutOf(only, analysis, 0)?.text.replace(/\n+$/, '');
    }
    this.outputCache.set(body, output);
    return output;
  }

  // --- Walking -----------------------------------------------------------------------------

  source(src: string, via: string): RiskLevel {
    const start = this.parts.length;
    const analysis = this.analyze(src);
    if (!analysis) {
      if (!this.exhausted) this.addPart('(parse error)', 'yellow', `could not parse ${via}`);
      return maxLevel(this.worstSince(start), 'yellow');
    }
    this.parseIssues(src, via, analysis);
    this.forkBombs(analysis);
    const functions = new Set(analysis.commands.flatMap((c) => (c.kind === 'function' && c.name && literalValue(c.name) !== undefined ? [literalValue(c.name) as string] : [])));
    for (const command of analysis.commands) this.command(command, analysis, functions);
    return this.worstSince(start);
  }

  private analyze(src: string): ShellAnalysis | undefined {
    this.parsedChars += src.length;
    const left = this.deadline - performance.now();
    if (this.exhausted || ++this.analyses > MAX_ANALYSES || this.parsedChars > this.parseBudget || left <= 0) return this.exhaust();
    try {
      return this.parser.analyze(src, { timeoutMs: left });
    } catch (error) {
      return error instanceof ParseTimeoutError ? this.exhaust() : undefined;
    }
  }

  /** Out of parse budget or time: what is left is not followed, and says so (YELLOW) once. */
  private exhaust(): undefined {
    if (!this.exhausted) this.addPart('(too complex)', 'yellow', 'the command is too complex to follow completely: it may do more than it shows');
    this.exhausted = true;
    return undefined;
  }

  /** Parse errors never lower the level; the text after an error is read again on its own, so nothing hides behind one. */
  private parseIssues(src: string, via: string, analysis: ShellAnalysis): void {
    if (analysis.issues.length === 0) return;
    const shownIssue = analysis.issues[0]?.text.trim().slice(0, 40) ?? '';
    this.addPart('(parse error)', 'yellow', `${via} does not parse cleanly${shownIssue ? ` near \`${shownIssue}\`` : ''}: it may do more than it shows`);
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

  /** `:(){ :|:& };:` and renamed variants: a function whose body calls itself piped or in the background. */
  private forkBombs(analysis: ShellAnalysis): void {
    for (const fn of analysis.commands) {
      if (fn.kind !== 'function' || !fn.name) continue;
      const name = literalValue(fn.name);
      if (name === undefined) continue;
      const calls = analysis.commands.filter((c) => c.kind === 'simple' && c.name && literalValue(c.name) === name && c.functions.includes(name));
      if (calls.some((c) => c.pipeline !== undefined || c.background)) this.addPart(name, 'red', `fork bomb: ${name} starts copies of itself until the system runs out of processes`);
      else if (calls.length > 0) this.addPart(name, 'yellow', `${name} calls itself (endless recursion)`);
    }
  }

  private command(cmd: ShellCommand, analysis: ShellAnalysis, functions: ReadonlySet<string>): void {
    const slot = this.reserve();
    const verdict = new Verdict();
    let label = '';
    switch (cmd.kind) {
      case 'function':
        label = cmd.name?.text ?? '(function)';
        verdict.yellow(`defines the shell function ${label}`);
        break;
      case 'assignment':
        label = cmd.assignments.map((a) => `${a.name}=`).join(' ');
        this.assignments(cmd, verdict, true);
        break;
      case 'declaration':
        label = cmd.name?.text ?? 'declare';
        this.declaration(cmd, verdict, label);
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
    }
    this.redirects(cmd, verdict);
    this.processOutput(cmd, analysis, verdict);
    this.fill(slot, label, verdict);
  }

  /** `curl … | tee >(sh)`, `curl … > >(bash)`: a shell reading a download through `>( )`. */
  private processOutput(cmd: ShellCommand, analysis: ShellAnalysis, out: Verdict): void {
    const words = [...cmd.args, ...cmd.redirects.flatMap((r) => (r.target ? [r.target] : []))];
    const bodies = words.flatMap((w) => w.parts.flatMap((p) => (p.type === 'substitution' && p.kind === 'process-out' ? [p.body] : [])));
    if (bodies.length === 0) return;
    const stdin = this.stdinOf(cmd, analysis);
    const downloading = this.isDownloader(cmd) || (stdin.kind === 'pipe' && stdin.download);
    if (!downloading) return;
    for (const body of bodies) {
      const inner = this.analyze(body);
      const first = inner?.commands.find((c) => c.kind === 'simple');
      const name = first?.name ? commandName(literalValue(first.name) ?? '') : '';
      if (SHELLS.has(name) || Object.hasOwn(INTERPRETERS, interpreterName(name)) || name === 'sudo' || name === 'source') out.red(`feeds code downloaded from the network to ${name} through >( )`);
    }
  }

  private simple(cmd: ShellCommand, analysis: ShellAnalysis, verdict: Verdict, functions: ReadonlySet<string>): string {
    this.assignments(cmd, verdict, false);
    const args = cmd.args.map(toArg);
    if (!cmd.name || cmd.name.text === '') {
      verdict.yellow('a command the parser could not name');
      return '(unnamed)';
    }
    const name = literalValue(cmd.name);
    if (name === undefined) return this.unknownName(cmd.name, args, verdict);
    if (!cmd.inSubstitution) this.trackCd(name, args);
    if (functions.has(name)) {
      // Its body is classified where it is defined; calling it adds nothing (and shadows any command of that name).
      verdict.green(`runs the shell function ${name} defined on this line`);
      return name;
    }
    return this.invoke(name, args, this.stdinOf(cmd, analysis), verdict);
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

  /** `cd dir && rm -rf *`: later relative paths may be relative to dir. */
  private trackCd(name: string, args: Arg[]): void {
    if (name !== 'cd' && name !== 'pushd') return;
    const operand = args.find((a) => a.value === undefined || !/^-[LPe@]*$/.test(a.value) || a.value === '-');
    if (!operand) {
      this.addCwd(this.paths.home);
      return;
    }
    if (operand.value === '-') {
      this.paths.cwdUnknown = true;
      return;
    }
    const resolved = resolveWord(operand.word, this.paths);
    if (resolved.unknown || resolved.known.length === 0) this.paths.cwdUnknown = true;
    for (const dir of resolved.known) this.addCwd(unescapeGlob(dir));
  }

  private addCwd(dir: string): void {
    if (!this.paths.cwds.includes(dir) && this.paths.cwds.length < 16) this.paths.cwds.push(dir);
  }

  private assignments(cmd: ShellCommand, out: Verdict, standalone: boolean): void {
    for (const a of cmd.assignments) {
      const value = a.value ? literalValue(a.value) : '';
      if (CODE_VARIABLES.test(a.name)) {
        if (value === undefined) out.yellow(`${a.name} is set to a command known only at run time`);
        else if (value.trim() !== '') {
          const level = this.nestedSource(value, `${a.name}=`);
          out.raise(level, `${a.name}=${value} makes programs run it`);
        }
      } else if (LOADER_VARIABLES.test(a.name)) {
        out.yellow(`${a.name}=… changes what programs load or run`);
      }
      if (standalone) out.yellow(`sets the shell variable ${a.name} for the rest of the session`);
    }
  }

  private declaration(cmd: ShellCommand, out: Verdict, keyword: string): void {
    this.assignments(cmd, out, false);
    const args = cmd.args.map(toArg);
    if (keyword !== 'unset' && args.every((a) => a.value !== undefined && /^-[pfFx]+$/.test(a.value))) out.green(`${keyword} only lists`);
    else out.yellow(`${keyword} changes shell variables or functions`);
  }

  private redirects(cmd: ShellCommand, out: Verdict): void {
    for (const r of cmd.redirects) {
      if (!r.target) continue;
      const op = r.operator;
      if (op === '>&' || op === '<&') {
        const v = literalValue(r.target);
        if (op === '<&' || (v !== undefined && /^(\d+|-)$/.test(v))) continue; // fd duplication, not a file
      } else if (!['>', '>>', '>|', '&>', '&>>', '<>'].includes(op)) continue;
      if (r.target.parts.length === 1 && r.target.parts[0]?.type === 'substitution') continue; // `> >(cmd)`: cmd is its own part
      checkPath(toArg(r.target), 'write', out, this.paths);
    }
  }

  // --- Standard input ----------------------------------------------------------------------

  private stdinOf(cmd: ShellCommand, analysis: ShellAnalysis, depth = 0): StdinSource {
    let source: StdinSource | undefined;
    for (const r of cmd.redirects) {
      if (r.fd !== undefined && r.fd !== '0') continue;
      if (r.operator === '<<' || r.operator === '<<-') source = { kind: 'pipe', download: false, text: r.heredoc?.body ?? '', from: 'a here-document' };
      else if (r.operator === '<<<' && r.target) {
        const text = literalValue(r.target);
        source = { kind: 'pipe', download: this.fetchesCode(r.target), text: text === undefined ? undefined : `${text}\n`, from: 'a here-string' };
      } else if (r.operator === '<' && r.target) {
        source = this.fetchesCode(r.target) ? { kind: 'pipe', download: true, from: r.target.text } : { kind: 'file', path: r.target.text };
      }
    }
    if (source) return source;
    if (cmd.pipeline && cmd.pipeline.stage > 0) {
      const { id, stage } = cmd.pipeline;
      const earlier = analysis.commands.filter((c) => c.pipeline?.id === id && c.pipeline.stage < stage);
      const previous = earlier.filter((c) => c.pipeline?.stage === stage - 1);
      const download = earlier.some((c) => this.isDownloader(c) || c.args.some((a) => this.fetchesCode(a)));
      const only = previous.length === 1 ? previous[0] : undefined;
      const known = only && depth < 8 ? this.stdoutOf(only, analysis, depth + 1) : undefined;
      return { kind: 'pipe', download, text: known?.text, decoded: known?.decoded, from: previous.map((c) => c.text).join(' ') || 'a pipe' };
    }
    return { kind: 'terminal' };
  }

  /** The exact output of simple producers (`echo …`, `printf …`, `cat <<EOF`, `base64 -d`, `rev`), when known. */
  private stdoutOf(cmd: ShellCommand, analysis: ShellAnalysis, depth: number): { text: string; decoded: boolean } | undefined {
    if (cmd.kind !== 'simple' || !cmd.name) return undefined;
    const name = commandName(literalValue(cmd.name) ?? '');
    const values = cmd.args.map((w) => {
      const first = w.parts[0];
      // `echo ~` prints the home directory.
      if (w.parts.length === 1 && first?.type === 'literal' && !first.quoted && /^~(\/|$)/.test(first.value)) return this.paths.home + first.value.slice(1);
      return literalValue(w);
    });
    if (values.some((v) => v === undefined)) return undefined;
    const args = values as string[];
    const input = (): { text: string; decoded: boolean } | undefined => {
      const stdin = this.stdinOf(cmd, analysis, depth);
      return stdin.kind === 'pipe' && stdin.text !== undefined ? { text: stdin.text, decoded: stdin.decoded ?? false } : undefined;
    };
    switch (name) {
      case 'echo': {
        let i = 0;
        let newline = true;
        let escapes = false;
        for (; i < args.length && /^-[neE]+$/.test(args[i] as string); i++) {
          if (args[i]?.includes('n')) newline = false;
          if (args[i]?.includes('e')) escapes = true;
        }
        const text = args.slice(i).join(' ');
        return { text: (escapes ? decodeEscapes(text) : text) + (newline ? '\n' : ''), decoded: false };
      }
      case 'printf': {
        const [format = '', ...rest] = args;
        if (/%(?!%|s)/.test(format)) return undefined; // only `%s` is followed
        let i = 0;
        const text = format.replace(/%(%|s)/g, (_m, c: string) => (c === '%' ? '%' : (rest[i++] ?? '')));
        return { text: decodeEscapes(text), decoded: false };
      }
      case 'cat':
        return args.length === 0 ? input() : undefined;
      case 'base64': {
        if (!args.some((a) => /^(-[a-zA-Z]*[dD][a-zA-Z]*|--decode)$/.test(a)) || args.some((a) => !a.startsWith('-'))) return undefined;
        const from = input();
        return from ? { text: Buffer.from(from.text, 'base64').toString('utf8'), decoded: true } : undefined;
      }
      case 'rev': {
        const from = input();
        return from && args.length === 0 ? { text: from.text.split('\n').map((l) => [...l].reverse().join('')).join('\n'), decoded: true } : undefined;
      }
      case 'xxd': {
        const from = input();
        if (!from || !args.includes('-r') || !args.includes('-p')) return undefined;
        return { text: Buffer.from(from.text.replace(/\s+/g, ''), 'hex').toString('utf8'), decoded: true };
      }
      default:
        return undefined;
    }
  }

  private isDownloader(cmd: ShellCommand): boolean {
    if (cmd.kind !== 'simple' || !cmd.name) return false;
    const name = commandName(literalValue(cmd.name) ?? '');
    if (DOWNLOADERS.has(name)) return true;
    return DOWNLOAD_WRAPPERS.has(name) && cmd.args.some((a) => DOWNLOADERS.has(commandName(literalValue(a) ?? '')));
  }

  // --- Parts -------------------------------------------------------------------------------

  private reserve(): number {
    this.parts.push({ command: '', flags: [], writes: [], protectedHits: [], words: [], level: 'green', reason: '' });
    return this.parts.length - 1;
  }

  private fill(slot: number, command: string, verdict: Verdict): void {
    this.parts[slot] = { command, flags: [...verdict.flags], writes: [...verdict.writes], protectedHits: [...verdict.protectedHits], words: [...verdict.words], level: verdict.level, reason: verdict.reason || 'nothing to flag' };
  }

  private addPart(command: string, level: RiskLevel, reason: string): RiskLevel {
    this.parts.push({ command, flags: [], writes: [], protectedHits: [], words: [], level, reason });
    return level;
  }

  private worstSince(start: number): RiskLevel {
    let level: RiskLevel = 'green';
    for (let i = start; i < this.parts.length; i++) level = maxLevel(level, (this.parts[i] as ClassifiedPart).level);
    return level;
  }
}

/** Whether a reason already names its command as a word (`sudo runs rm …`, `… into sh`). */
function namesCommand(reason: string, command: string): boolean {
  const escaped = command.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  return new RegExp(`(^|\\s)${escaped}($|[\\s:])`).test(reason);
}

function decodeEscapes(text: string): string {
  return text.replace(/\\(n|t|r|\\|x[0-9a-fA-F]{2}|0[0-7]{0,3})/g, (_m, e: string) => {
    if (e === 'n') return '\n';
    if (e === 't') return '\t';
    if (e === 'r') return '\r';
    if (e === '\\') return '\\';
    if (e.startsWith('x')) return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    return String.fromCharCode(Number.parseInt(e.slice(1) || '0', 8));
  });
}

