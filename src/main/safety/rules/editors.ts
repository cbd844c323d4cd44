/**
 * Rules for editors and openers. An editor opens files and can change them (YELLOW); vim's and
 * Emacs's flags can also run commands (`vim -c '!id'`, `emacs --eval '(shell-command "id")'`):
 * those are judged as commands of their own, and what cannot be judged (a script file, a Lisp
 * function, code built at run time) asks, whatever allows the editor itself.
 */
import { literalArg, shellText, shown, type Arg } from './arguments';
import { judgeCodeCommands, quoted } from './inlineCode';
import { checkPath } from './pathChecks';
import type { Invocation, Rule, RuleEnv } from './rule';
import type { Verdict } from './verdict';
import { analyzeExCommands } from './vimCommands';

/** An editor that only opens files: nano, micro, helix, code … */
export const editorRule: Rule = (inv, out, env) => opensFiles(inv, inv.args.filter((a) => !(a.value ?? '').startsWith('-') && !(a.value ?? '').startsWith('+')), out, env);

function opensFiles(inv: Invocation, files: readonly Arg[], out: Verdict, env: RuleEnv): void {
  const otherwise = `${inv.name} opens ${files.map(shown).join(' ') || 'an editor'}, and can change it`;
  for (const file of files) checkPath(file, 'write', out, env.paths, { otherwise });
  out.yellow(otherwise);
}

/** Vim's options that take a value and run nothing. */
const VIM_VALUE_OPTIONS = new Set(['-T', '-t', '-q', '-r', '-d', '--servername', '--listen', '--socketid', '--windowid', '-geometry', '--remote-wait-silent']);
const VIM_HARMLESS_RC = /^(NONE|NORC|DEFAULTS|NOPLUGIN)$/;

/** vi, vim, nvim, view, ex, vimdiff …: `-c`, `+cmd`, `--cmd` run Ex commands; `-S`, `-u`, `-s`, nvim's `-l` run files. */
export const vimRule: Rule = (inv, out, env) => {
  const name = inv.name;
  const args = inv.args;
  const files: Arg[] = [];
  let exMode = name === 'ex';
  let options = true;
  const script = (file: Arg | undefined, what: string, via: string): void => env.unjudgedCode(via, file ? shown(file) : '(no file)', `${via} ${what} ${file ? shown(file) : 'a file'}, which Tandem cannot see`);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    const v = arg.value;
    if (!options || (v !== undefined && !v.startsWith('-') && !v.startsWith('+'))) {
      files.push(arg);
      continue;
    }
    if (v === undefined) {
      if (/^['"]?[-+]/.test(arg.text)) env.unjudgedCode(name, arg.text, `${name} ${arg.text} is an option known only at run time, which can run commands`);
      else files.push(arg);
      continue;
    }
    // `ex -sc 'cmd'`, `vim -Nc …`: letters bundled before a `c` that takes the command.
    const bundled = /^-([a-zA-Z]+)c$/.exec(v);
    if (bundled && /[eE]/.test(bundled[1] as string)) exMode = true;
    if (v === '--') options = false;
    else if (v.startsWith('+')) {
      if (!/^\+(\d*|[/?].*)$/.test(v)) exCommands(v.slice(1), `${name} +`, out, env);
    } else if (v === '-c' || v === '--cmd' || bundled) {
      const flag = bundled ? '-c' : v;
      const text = args[++i];
      if (text?.value === undefined) env.unjudgedCode(`${name} ${flag}`, text?.text ?? '', `${name} ${flag} runs an Ex command known only at run time`);
      else exCommands(text.value, `${name} ${flag}`, out, env);
    } else if (v === '-S') {
      const next = args[i + 1];
      const file = next && !/^[-+]/.test(next.value ?? next.text) ? args[++i] : literalArg('Session.vim');
      script(file, 'runs the vim script', `${name} -S`);
    } else if (v === '-u' || v === '-U') {
      const file = args[++i];
      if (!VIM_HARMLESS_RC.test(file?.value ?? '')) script(file, 'loads, as its startup script,', `${name} ${v}`);
    } else if (v === '-l' && name === 'nvim') {
      script(args[++i], 'runs the Lua script', 'nvim -l');
      return out.yellow('nvim -l runs a Lua script');
    } else if (v === '-s' && !exMode) script(args[++i], 'types the keys in', `${name} -s`);
    else if (v === '-w' || v === '-W' || v === '--startuptime' || v === '--log' || v === '-i') {
      const file = args[++i];
      if (file && file.value !== 'NONE') checkPath(file, 'write', out, env.paths);
    } else if (v === '--remote-send' || v === '--remote-expr') {
      const text = args[++i];
      env.unjudgedCode(`${name} ${v}`, text ? shown(text) : '', `${name} ${v} makes another running vim run ${text ? quoted(shown(text)) : 'something'}`);
    } else if (VIM_VALUE_OPTIONS.has(v)) i++;
    else if (/^-[a-zA-Z]*[eE][a-zA-Z]*$/.test(v) && !v.startsWith('--')) exMode = true;
  }
  if (exMode) exInput(inv, out, env);
  opensFiles(inv, files, out, env);
};

/** Ex mode reads its commands from standard input: a pipe's known text is judged, anything else unknown asks. */
function exInput(inv: Invocation, out: Verdict, env: RuleEnv): void {
  const via = `${inv.name} (Ex commands on its input)`;
  if (inv.stdin.kind === 'pipe' && inv.stdin.text !== undefined) exCommands(inv.stdin.text, via, out, env);
  else if (inv.stdin.kind === 'pipe') env.unjudgedCode(via, inv.stdin.from, `${inv.name} runs the Ex commands ${inv.stdin.from} prints, which Tandem cannot see`);
  else if (inv.stdin.kind === 'file') env.unjudgedCode(via, inv.stdin.path, `${inv.name} runs the Ex commands in ${inv.stdin.path}, which Tandem cannot see`);
}

/** Judges Ex command text run by `via`. */
function exCommands(text: string, via: string, out: Verdict, env: RuleEnv): void {
  const found = analyzeExCommands(text);
  for (const shell of found.shell) env.nestedSource(shell, via);
  if (found.shell.length > 0) out.yellow(`${via} runs the shell ${found.shell.length === 1 ? 'command' : 'commands'} ${found.shell.map(quoted).join(', ')}`);
  for (const code of found.code) {
    const runs = judgeCodeCommands(code.text, code.language, via, env);
    if (runs) out.yellow(runs);
    else if (code.language !== 'vim') out.yellow(`${via} runs ${code.language === 'other' ? 'code' : `${code.language} code`}`);
  }
  for (const { written, why } of found.unjudged) env.unjudgedCode(via, written, `${via} runs ${quoted(written)}, which ${why}`);
  for (const file of found.writes) checkPath(literalArg(file, false), 'write', out, env.paths);
}

/** Emacs's options that take a value and run nothing. */
const EMACS_VALUE_OPTIONS = new Set(['-L', '--directory', '--chdir', '-t', '--terminal', '-d', '--display', '--title', '-T', '--name', '-fn', '--font', '-bg', '-fg', '--background-color', '--foreground-color', '-bd', '--border-color', '-bw', '--border-width', '-ib', '--internal-border', '-g', '--geometry', '-cr', '--cursor-color', '-ms', '--mouse-color', '--color', '--dump-file', '--fingerprint', '--temacs', '-s', '--socket-name', '-f', '--server-file', '-w', '--timeout', '-F', '--frame-parameters', '--tramp', '--parent-id']);

/** emacs, emacsclient: `--eval` runs Lisp (its shell calls judged), `-l`/`--script`/`-f` run code Tandem cannot see. */
export const emacsRule: Rule = (inv, out, env) => {
  const name = inv.name;
  const client = name === 'emacsclient';
  const files: Arg[] = [];
  const evalFiles = client && inv.args.some((a) => a.value === '-e' || a.value === '--eval');
  for (let i = 0; i < inv.args.length; i++) {
    const arg = inv.args[i] as Arg;
    const [option, attached] = splitLong(arg.value ?? arg.text);
    const value = (): Arg | undefined => (attached !== undefined ? literalArg(attached) : inv.args[++i]);
    if (!option.startsWith('-') && !option.startsWith('+')) {
      if (evalFiles) lisp(arg, `${name} --eval`, out, env);
      else files.push(arg);
    } else if (['--eval', '-eval', '--execute', '-execute'].includes(option) && !client) lisp(value(), `${name} --eval`, out, env);
    else if (client && (option === '-e' || option === '--eval')) continue;
    else if (['-l', '--load', '-load'].includes(option)) scriptFile(value(), `${name} ${option}`, 'loads the Lisp file', env);
    else if (['--script', '-script', '-x'].includes(option)) scriptFile(value(), `${name} ${option}`, 'runs the Lisp script', env);
    else if (['-f', '--funcall', '-funcall'].includes(option) && !client) {
      const fn = value();
      if (!/^(kill-emacs|save-buffers-kill-emacs|save-buffers-kill-terminal)$/.test(fn?.value ?? '')) env.unjudgedCode(`${name} ${option}`, fn ? shown(fn) : '', `${name} ${option} calls the Lisp function ${fn ? shown(fn) : 'it names'}, which Tandem cannot judge`);
    } else if (['-u', '--user', '-user'].includes(option)) env.unjudgedCode(`${name} ${option}`, shown(value() ?? literalArg('')), `${name} ${option} loads another user's init file, which Tandem cannot see`);
    else if (option === '--init-directory') env.unjudgedCode(`${name} ${option}`, shown(value() ?? literalArg('')), `${name} --init-directory loads the init files there, which Tandem cannot see`);
    else if (client && (option === '-a' || option === '--alternate-editor')) {
      const editor = value();
      if (editor && (editor.value ?? 'x') !== '') env.nestedSource(shellText(editor, env.paths), `${name} --alternate-editor`);
    } else if (['--file', '--find-file', '--visit', '--insert'].includes(option)) files.push(value() ?? literalArg(''));
    else if (EMACS_VALUE_OPTIONS.has(option) && attached === undefined && !(client && option === '-t')) i++;
  }
  const batch = inv.args.some((a) => /^(--?batch|--?script|-x)$/.test(a.value ?? ''));
  if (batch && files.length === 0) return out.yellow(`${name} runs in batch mode, without an editor`);
  opensFiles(inv, files, out, env);
};

/** `--eval=EXPR` → [`--eval`, `EXPR`]. */
function splitLong(text: string): [string, string | undefined] {
  const eq = text.indexOf('=');
  return text.startsWith('--') && eq > 0 ? [text.slice(0, eq), text.slice(eq + 1)] : [text, undefined];
}

function scriptFile(file: Arg | undefined, via: string, what: string, env: RuleEnv): void {
  env.unjudgedCode(via, file ? shown(file) : '', `${via} ${what} ${file ? shown(file) : 'it names'}, which Tandem cannot see`);
}

/** Lisp given on the command line: its shell calls judged; deletions judged as rm. */
function lisp(expression: Arg | undefined, via: string, out: Verdict, env: RuleEnv): void {
  if (!expression) return;
  if (expression.value === undefined) return env.unjudgedCode(via, expression.text, `${via} runs Lisp known only at run time`);
  const code = expression.value;
  const runs = judgeCodeCommands(code, 'lisp', via, env);
  for (const m of code.matchAll(/\(delete-(directory|file)\s+"([^"]+)"(\s+t\b)?/g)) {
    env.nestedArgv([literalArg('rm'), ...(m[3] ? [literalArg('-rf')] : []), literalArg(m[2] as string, false)], via);
  }
  out.yellow(runs ?? `${via} runs Lisp code`);
}

export const openRule: Rule = (inv, out) => out.yellow(`${inv.name} opens ${inv.args.map(shown).join(' ') || 'something'} in another application`);
