/**
 * Shell commands inside program code given on a command line (`python -c`, `perl -e`, `node -e`,
 * awk programs, vim expressions, Emacs Lisp): the calls that run commands — `system`, backticks,
 * `qx`, `%x`, `exec`, `spawn`, `child_process`, `os.execute`, `io.popen`, `shell_exec`,
 * `passthru`, `popen`, `shell-command` … — with their text when it is a literal, and the calls
 * whose text is known only when the code runs.
 */
import { literalArg, unknownArg } from './arguments';
import { readCodeArguments, readCodeLiteral, type CodeArgument, type CodeLanguage } from './codeLiterals';
import type { RuleEnv } from './rule';

export type { CodeLanguage } from './codeLiterals';

export interface CodeCommands {
  /** Shell source the code runs (`system("rm -rf ~")`, `` `id` ``, `qx(id)`). */
  sources: string[];
  /** Programs run with their arguments (`spawn("rm", ["-rf", d])`); undefined where an argument is not a literal. */
  argvs: (string | undefined)[][];
  /** Calls that run a command whose text is not a literal (`system($cmd)`, `os.system("rm " + d)`), as written. */
  unjudged: string[];
}

/** Calls whose first argument is shell source. */
const SHELL_CALL =
  /(?:\bos\.system|\bos\.popen|\bsubprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|\bcommands\.getoutput|\bsystemlist|\bsystem|\bio\.popen|\bIO\.popen|\bpopen|\bshell_exec|\bpassthru|\bproc_open|\bexecSync|\bos\.execute|\bOpen3\.\w+|\bexec|\bshell|\bjobstart|\bjob_start|\btermopen|\bterm_start|\bdo shell script|\bshell-command-to-string|\bshell-command|\basync-shell-command|\bcall-process-shell-command|\bprocess-file-shell-command)(?![\w-])/g;
/** Calls whose arguments are a program and its arguments. */
const ARGV_CALL = /(?:\bspawnSync|\bspawn|\bexecFileSync|\bexecFile|\bos\.exec[lv]p?e?|\bos\.spawn[lv]p?e?|\bpty\.spawn|\bsystem2|\bpcntl_exec|\bcall-process|\bprocess-lines|\bstart-process|\bmake-process)(?![\w-])/g;
/** Calls looked into per piece of code: past this, the rest is one unjudged call (a long line must not take long). */
const MAX_CALLS = 64;
/** `from subprocess import run` / `import subprocess as sp`: subprocess's functions by another name. */
const PYTHON_SUBPROCESS = /(?<![\w.])(?:\w+\.)?(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)(?=\s*\()/g;
/** Perl's `open(F, "cmd |")`, `open(my $f, "-|", "cmd")`: a pipe to or from a command. */
const PERL_OPEN = /\bopen(?![\w-])/g;
/** Python's exec and eval run Python code, not shell. */
const PYTHON_CODE_CALL = /\b(?:exec|eval)(?![\w-])/;

export function commandsInCode(code: string, language: CodeLanguage): CodeCommands {
  const found: CodeCommands = { sources: [], argvs: [], unjudged: [] };
  const calls = [...code.matchAll(SHELL_CALL)].length + [...code.matchAll(ARGV_CALL)].length;
  if (calls > MAX_CALLS) return { sources: [], argvs: [], unjudged: [`${calls} calls that run commands`] };
  for (const match of code.matchAll(SHELL_CALL)) {
    const name = match[0];
    if (language === 'python' && PYTHON_CODE_CALL.test(name) && !name.includes('.')) {
      pythonCode(code, (match.index ?? 0) + name.length, found);
      continue;
    }
    if (name === 'shell' && language !== 'r') continue;
    call(code, match.index ?? 0, name, 'shell', language, found);
  }
  for (const match of code.matchAll(ARGV_CALL)) call(code, match.index ?? 0, match[0], 'argv', language, found);
  if (language === 'python' && /\bsubprocess\b/.test(code)) {
    for (const match of code.matchAll(PYTHON_SUBPROCESS)) if (!match[0].startsWith('subprocess.')) call(code, match.index ?? 0, match[0], 'shell', language, found);
  }
  if (language === 'perl') for (const match of code.matchAll(PERL_OPEN)) perlOpen(code, (match.index ?? 0) + match[0].length, found);
  if (language === 'perl' || language === 'ruby' || language === 'php') quotedCommands(code, language, found);
  return { sources: [...new Set(found.sources)], argvs: found.argvs, unjudged: [...new Set(found.unjudged)] };
}

/**
 * Judges the commands code runs as parts of their own, carried by `via` (`perl -e`, `awk
 * system()`): literal ones as commands, the others as code Tandem cannot judge. Returns a reason
 * naming them (`perl -e runs the shell command \`id\``), or undefined when the code runs none.
 */
export function judgeCodeCommands(code: string, language: CodeLanguage, via: string, env: RuleEnv): string | undefined {
  const found = commandsInCode(code, language);
  for (const source of found.sources) env.nestedSource(source, via);
  const unknown = '(a value known only when the code runs)';
  for (const argv of found.argvs) env.nestedArgv(argv.map((value) => (value === undefined ? unknownArg(unknown) : literalArg(value))), via);
  for (const written of found.unjudged) env.unjudgedCode(via, written, `${via} runs a command built when the code runs (${quoted(written)}), which Tandem cannot judge`);
  const shown = [...found.sources, ...found.argvs.map((argv) => argv.map((value) => value ?? unknown).join(' '))].map(quoted);
  if (shown.length > 0) return `${via} runs the shell ${shown.length === 1 ? 'command' : 'commands'} ${shown.join(', ')}`;
  return found.unjudged.length > 0 ? `${via} runs shell commands` : undefined;
}

/** A command for a reason: in backquotes, cut short when long. */
export function quoted(command: string): string {
  const line = command.trim().replace(/\s+/g, ' ');
  return `\`${line.length > 80 ? `${line.slice(0, 77)}…` : line}\``;
}

/** `` `cmd` ``, `qx(cmd)`, `%x(cmd)`: the language's own command quotes. */
function quotedCommands(code: string, language: CodeLanguage, found: CodeCommands): void {
  for (let i = 0; i < code.length; i++) {
    const quote = code[i] === '`' ? 0 : language === 'perl' && /^qx\W/.test(code.slice(i, i + 3)) && !/\w/.test(code[i - 1] ?? '') ? 2 : language === 'ruby' && /^%x\W/.test(code.slice(i, i + 3)) ? 2 : -1;
    if (quote < 0) continue;
    const literal = readCodeLiteral(code, i + quote, 'command');
    // Unclosed: nothing after it closes either (and scanning again from each later quote would take long).
    if (!literal) {
      found.unjudged.push(code.slice(i, i + 80));
      break;
    }
    found.sources.push(literal.value);
    if (literal.interpolated) found.unjudged.push(code.slice(i, literal.end));
    i = literal.end - 1;
  }
}

function call(code: string, at: number, name: string, kind: 'shell' | 'argv', language: CodeLanguage, found: CodeCommands): void {
  const start = at + name.length;
  const args = readCodeArguments(code, start, language);
  const written = code.slice(at, args.end).trim() || name;
  const [first, ...rest] = args.items;
  if (!first) {
    // `exec` alone, `system` as a word in a comment: nothing is run from here that can be seen.
    if (args.called) found.unjudged.push(written);
    return;
  }
  if (args.items.some((item) => item.interpolated || item.joined)) found.unjudged.push(written);
  if (first.list) return void found.argvs.push([...first.list]);
  if (first.value === undefined) return void found.unjudged.push(written);
  if (name === 'start-process') return argvFrom(rest.slice(1), found, written);
  if (name === 'call-process') return void found.argvs.push([first.value, ...rest.slice(3).map(valueOf)]);
  if (name === 'make-process') return void found.unjudged.push(written);
  const several = rest.length > 0 && rest.every((item) => !item.keyword) && (language === 'perl' || language === 'ruby');
  if (kind === 'argv' || several) {
    const list = rest.find((item) => item.list)?.list;
    if (kind === 'argv' && rest.length === 0 && /\s/.test(first.value)) return void found.sources.push(first.value);
    return void found.argvs.push([first.value, ...(list ? list : rest.filter((item) => !item.keyword).map(valueOf))]);
  }
  found.sources.push(first.value);
}

/** `open(F, "cmd |")`, `open(F, "| cmd")`, `open(F, "-|", "cmd", args…)`; a file open is nothing. */
function perlOpen(code: string, start: number, found: CodeCommands): void {
  const args = readCodeArguments(code, start, 'perl');
  const [, mode, ...rest] = args.items;
  const written = code.slice(start - 4, args.end).trim();
  if (mode?.value === '-|' || mode?.value === '|-') {
    if (rest[0]?.value === undefined) return void found.unjudged.push(written);
    if (rest.length > 1) return void found.argvs.push(rest.map(valueOf));
    return void found.sources.push(rest[0].value);
  }
  const piped = mode?.value !== undefined ? /^\s*\|(.*)$|^(.*)\|\s*$/.exec(mode.value) : null;
  if (piped) found.sources.push((piped[1] ?? piped[2] ?? '').trim());
  else if (mode && mode.value === undefined && !mode.keyword && /\|/.test(written)) found.unjudged.push(written);
}

function argvFrom(items: CodeArgument[], found: CodeCommands, written: string): void {
  const [program, ...args] = items;
  if (program?.value === undefined) return void found.unjudged.push(written);
  found.argvs.push([program.value, ...args.map(valueOf)]);
}

function valueOf(item: CodeArgument): string | undefined {
  return item.value;
}

/** Python's `exec("…")` / `eval("…")`: the literal is Python code, looked into again. */
function pythonCode(code: string, start: number, found: CodeCommands): void {
  const args = readCodeArguments(code, start, 'python');
  const first = args.items[0];
  if (!args.called) return;
  if (first?.value === undefined || first.interpolated || first.joined) {
    found.unjudged.push(code.slice(start - 4, args.end).trim());
    if (first?.value === undefined) return;
  }
  const inner = commandsInCode(first.value, 'python');
  found.sources.push(...inner.sources);
  found.argvs.push(...inner.argvs);
  found.unjudged.push(...inner.unjudged);
}
