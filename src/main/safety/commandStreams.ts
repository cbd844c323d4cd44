/**
 * What flows into and out of the commands of one command line, as far as the parse can tell:
 * whether a `$( )` body downloads something, what a command reads on stdin (a pipe, a here-doc,
 * a file, the terminal), the exact text simple producers print, and a download fed to a shell
 * through `>( )`. Answers are cached per classification; nested parses go through the budget.
 */
import { posix } from 'node:path';
import type { BoundedParser } from './boundedParser';
import { producedOutput, type KnownText } from './knownOutput';
import { toArg } from './rules/arguments';
import { credentialIn, stdinCredential } from './rules/credentialFiles';
import { INTERPRETERS, interpreterName } from './rules/interpreters';
import { DOWNLOADERS } from './rules/network';
import type { PathContext } from './rules/pathContext';
import type { StdinSource } from './rules/rule';
import { SHELLS } from './rules/shells';
import type { Verdict } from './rules/verdict';
import { literalValue, type ShellAnalysis, type ShellCommand, type Word } from './shellParser';

/** Wrappers that may hide a downloader (`sudo curl …`). */
const DOWNLOAD_WRAPPERS: ReadonlySet<string> = new Set(['sudo', 'doas', 'env', 'command', 'builtin', 'nice', 'ionice', 'timeout', 'nohup', 'stdbuf', 'time', 'exec', 'busybox', 'proxychains', 'proxychains4', 'torsocks']);

/** How many pipeline stages back the known text of a pipe is followed. */
const MAX_PIPE_DEPTH = 8;

function commandName(word: string): string {
  return word.includes('/') ? posix.basename(word) : word;
}

export class CommandStreams {
  private readonly fetchCache = new Map<string, boolean>();
  private readonly outputCache = new Map<string, string | undefined>();

  constructor(
    private readonly parse: BoundedParser,
    private readonly paths: PathContext,
  ) {}

  /** Whether the word contains a `$( )` / `<( )` whose body fetches from the network. */
  fetchesCode(word: Word): boolean {
    for (const part of word.parts) {
      if (part.type !== 'substitution') continue;
      let found = this.fetchCache.get(part.body);
      if (found === undefined) {
        this.fetchCache.set(part.body, false);
        const analysis = this.parse.analyze(part.body);
        found = analysis !== undefined && analysis.commands.some((c) => this.isDownloader(c) || c.args.some((a) => this.fetchesCode(a)));
        this.fetchCache.set(part.body, found);
      }
      if (found) return true;
    }
    return false;
  }

  /** The output of `$(echo …)`, `$(printf …)`, `$(pwd)`: known before run time, so `rm -rf $(echo /)` is `rm -rf /`. */
  staticOutput(body: string): string | undefined {
    if (this.outputCache.has(body)) return this.outputCache.get(body);
    this.outputCache.set(body, undefined);
    const analysis = this.parse.analyze(body);
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

  /** What the command reads on standard input: its last stdin redirect, else the pipe before it, else the terminal. */
  stdinOf(cmd: ShellCommand, analysis: ShellAnalysis, depth = 0): StdinSource {
    let source: StdinSource | undefined;
    for (const r of cmd.redirects) {
      if (r.fd !== undefined && r.fd !== '0') continue;
      if (r.operator === '<<' || r.operator === '<<-') source = { kind: 'pipe', download: false, text: r.heredoc?.body ?? '', from: 'a here-document' };
      else if (r.operator === '<<<' && r.target) {
        const text = literalValue(r.target);
        source = { kind: 'pipe', download: this.fetchesCode(r.target), text: text === undefined ? undefined : `${text}\n`, from: 'a here-string' };
      } else if (r.operator === '<' && r.target) {
        source = this.fetchesCode(r.target) ? { kind: 'pipe', download: true, from: r.target.text } : { kind: 'file', path: r.target.text, word: r.target };
      }
    }
    if (source) return source;
    if (cmd.pipeline && cmd.pipeline.stage > 0) {
      const { id, stage } = cmd.pipeline;
      const earlier = analysis.commands.filter((c) => c.pipeline?.id === id && c.pipeline.stage < stage);
      const previous = earlier.filter((c) => c.pipeline?.stage === stage - 1);
      const download = earlier.some((c) => this.isDownloader(c) || c.args.some((a) => this.fetchesCode(a)));
      const only = previous.length === 1 ? previous[0] : undefined;
      const known = only && depth < MAX_PIPE_DEPTH ? this.stdoutOf(only, analysis, depth + 1) : undefined;
      const credential = earlier.map((c) => this.credentialRead(c, analysis, depth)).find((found) => found !== undefined);
      return { kind: 'pipe', download, text: known?.text, decoded: known?.decoded, from: previous.map((c) => c.text).join(' ') || 'a pipe', ...(credential ? { credential } : {}) };
    }
    return { kind: 'terminal' };
  }

  /** A credential file the command reads (an argument, or its stdin), sending it down the pipe. */
  private credentialRead(cmd: ShellCommand, analysis: ShellAnalysis, depth: number): string | undefined {
    for (const word of cmd.args) {
      const found = credentialIn(toArg(word), this.paths, true);
      if (found) return found;
    }
    if (depth >= MAX_PIPE_DEPTH) return undefined;
    const stdin = this.stdinOf(cmd, analysis, depth + 1);
    return stdinCredential(stdin, this.paths);
  }

  /** Whether the command is a downloader (curl, wget, nc …), also behind a wrapper (`sudo curl …`). */
  isDownloader(cmd: ShellCommand): boolean {
    if (cmd.kind !== 'simple' || !cmd.name) return false;
    const name = commandName(literalValue(cmd.name) ?? '');
    if (DOWNLOADERS.has(name)) return true;
    return DOWNLOAD_WRAPPERS.has(name) && cmd.args.some((a) => DOWNLOADERS.has(commandName(literalValue(a) ?? '')));
  }

  /** `curl … | tee >(sh)`, `curl … > >(bash)`: a shell reading a download through `>( )`. */
  checkDownloadIntoProcessOutput(cmd: ShellCommand, analysis: ShellAnalysis, out: Verdict): void {
    const words = [...cmd.args, ...cmd.redirects.flatMap((r) => (r.target ? [r.target] : []))];
    const bodies = words.flatMap((w) => w.parts.flatMap((p) => (p.type === 'substitution' && p.kind === 'process-out' ? [p.body] : [])));
    if (bodies.length === 0) return;
    const stdin = this.stdinOf(cmd, analysis);
    const downloading = this.isDownloader(cmd) || (stdin.kind === 'pipe' && stdin.download);
    if (!downloading) return;
    for (const body of bodies) {
      const inner = this.parse.analyze(body);
      const first = inner?.commands.find((c) => c.kind === 'simple');
      const name = first?.name ? commandName(literalValue(first.name) ?? '') : '';
      if (SHELLS.has(name) || Object.hasOwn(INTERPRETERS, interpreterName(name)) || name === 'sudo' || name === 'source') out.red(`feeds code downloaded from the network to ${name} through >( )`);
    }
  }

  /** The exact output of simple producers (`echo …`, `printf …`, `cat <<EOF`, `base64 -d`, `rev`), when known. */
  private stdoutOf(cmd: ShellCommand, analysis: ShellAnalysis, depth: number): KnownText | undefined {
    if (cmd.kind !== 'simple' || !cmd.name) return undefined;
    const name = commandName(literalValue(cmd.name) ?? '');
    const values = cmd.args.map((w) => {
      const first = w.parts[0];
      // `echo ~` prints the home directory.
      if (w.parts.length === 1 && first?.type === 'literal' && !first.quoted && /^~(\/|$)/.test(first.value)) return this.paths.home + first.value.slice(1);
      return literalValue(w);
    });
    if (values.some((v) => v === undefined)) return undefined;
    return producedOutput(name, values as string[], () => {
      const stdin = this.stdinOf(cmd, analysis, depth);
      return stdin.kind === 'pipe' && stdin.text !== undefined ? { text: stdin.text, decoded: stdin.decoded ?? false } : undefined;
    });
  }
}
