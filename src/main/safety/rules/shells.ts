/** Rules for shells and shell builtins that run or change shell code: sh -c, eval, source, alias, trap, at, set, history. */
import { parseOptions, shellText, shown, type Arg, type OptionSpec } from './arguments';
import type { Invocation, Rule, RuleEnv } from './rule';
import type { Verdict } from './verdict';

/** Shells: `-c STRING` runs STRING, no script operand runs stdin. */
export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'yash', 'posh', 'ash', 'fish', 'tcsh', 'csh', 'rbash']);

/** What a shell or interpreter does with its standard input. */
export function runsStdin(inv: Invocation, out: Verdict, env: RuleEnv, what: string, canRead: boolean): void {
  const stdin = inv.stdin;
  if (stdin.kind === 'pipe') {
    if (stdin.download) return out.red(`pipes code downloaded from the network into ${what}`);
    if (stdin.text !== undefined && canRead) {
      if (stdin.decoded) out.yellow(`${what} runs decoded (obfuscated) commands`);
      env.nestedSource(stdin.text, `${what} (standard input)`);
      return out.green(`${what} runs the commands shown`);
    }
    return out.yellow(`${what} runs code read from ${stdin.from}`);
  }
  if (stdin.kind === 'file') return out.yellow(`${what} runs code from ${stdin.path}`);
  out.yellow(`starts an interactive ${what}`);
}

const SHELL_SPEC: OptionSpec = {
  short: { c: 'c', s: 's', n: 'noexec', i: 'i', l: 'login' },
  long: { login: 'login', norc: 'norc', noprofile: 'noprofile', rcfile: 'rcfile', 'init-file': 'rcfile', posix: 'posix', restricted: 'restricted', verbose: 'verbose', noediting: 'noediting', debugger: 'debugger', help: 'help', version: 'version' },
  shortValue: 'oO',
  longValue: ['rcfile'],
  plusOptions: true,
  stopAtOperand: true,
};
const FISH_SPEC: OptionSpec = {
  short: { c: 'c', C: 'init-command', n: 'noexec', i: 'i', l: 'login', d: 'debug', p: 'profile' },
  long: { command: 'c', 'init-command': 'init-command', 'no-execute': 'noexec', interactive: 'i', login: 'login', debug: 'debug', profile: 'profile', private: 'private', version: 'version', help: 'help' },
  shortValue: 'cCdp',
  longValue: ['c', 'init-command', 'debug', 'profile'],
  stopAtOperand: true,
};

export const shellRule: Rule = (inv, out, env) => {
  const fish = inv.name === 'fish';
  const o = parseOptions(inv.args, fish ? FISH_SPEC : SHELL_SPEC);
  out.addFlags(o.display);
  if (o.has('noexec')) return out.green(`${inv.name} -n only checks syntax`);
  const code = fish ? o.value('c') : o.has('c') ? o.operands[0] : undefined;
  if (code) {
    if (env.fetchesCode(code.word)) out.red(`${inv.name} -c runs code downloaded from the network`);
    if (code.value === undefined) out.yellow(`${inv.name} -c runs a command string known only at run time`);
    env.nestedSource(shellText(code, env.paths), `${inv.name} -c`);
    return out.green(`${inv.name} -c runs the commands shown`);
  }
  const script = o.has('s') ? undefined : o.operands[0];
  if (script && script.value !== '-' && script.value !== '/dev/stdin') {
    if (env.fetchesCode(script.word)) return out.red(`${inv.name} runs a script downloaded from the network (${script.text})`);
    return out.yellow(`${inv.name} runs the script ${shown(script)}`);
  }
  runsStdin(inv, out, env, inv.name, true);
};

/** at, batch: run shell commands (from stdin or -f FILE) later. */
export const atRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'fqtM', short: { f: 'file', l: 'list', r: 'remove', d: 'remove', c: 'cat' } });
  if (o.has('list', 'cat') || inv.name === 'atq') return out.green(`${inv.name} only lists jobs`);
  if (o.has('remove') || inv.name === 'atrm') return out.yellow(`${inv.name} removes scheduled jobs`);
  if (o.has('file')) out.yellow(`${inv.name} schedules the commands in ${shown(o.value('file') as Arg)}`);
  else runsStdin(inv, out, env, inv.name, true);
  out.yellow(`${inv.name} schedules commands to run later`);
};

export const evalRule: Rule = (inv, out, env) => {
  if (inv.args.length === 0) return out.green('eval of nothing');
  if (inv.args.some((a) => env.fetchesCode(a.word))) out.red('eval runs code downloaded from the network');
  if (inv.args.some((a) => a.value === undefined)) out.yellow('eval runs text known only at run time');
  env.nestedSource(inv.args.map((a) => shellText(a, env.paths)).join(' '), 'eval');
  out.green('eval runs the commands shown');
};

export const sourceRule: Rule = (inv, out, env) => {
  const file = inv.args[0];
  if (!file) return out.yellow(`${inv.name} without a file`);
  if (env.fetchesCode(file.word)) return out.red(`${inv.name} runs code downloaded from the network in this shell`);
  if (file.value === '/dev/stdin' || file.value === '-') return runsStdin(inv, out, env, inv.name, true);
  out.yellow(`${inv.name} runs the commands in ${shown(file)} in this shell`);
};

export const aliasRule: Rule = (inv, out, env) => {
  const definitions = inv.args.filter((a) => a.value === undefined || a.value.includes('='));
  if (definitions.length === 0) return out.green('alias only lists aliases');
  for (const d of definitions) {
    const text = shellText(d);
    const eq = text.indexOf('=');
    if (eq > 0) env.nestedSource(text.slice(eq + 1), `alias ${text.slice(0, eq)}`);
    out.yellow(`alias ${eq > 0 ? text.slice(0, eq) : text} changes what a command name runs`);
  }
};

export const trapRule: Rule = (inv, out, env) => {
  const [action, ...signals] = inv.args;
  if (!action || action.value === '-l' || action.value === '-p') return out.green('trap only lists');
  if (action.value !== '-' && action.value !== '') env.nestedSource(shellText(action), 'trap');
  out.yellow(`trap runs ${shellText(action) || 'nothing'} when the shell gets ${signals.map(shown).join(' ') || 'a signal'}`);
};

/** set, shopt, ulimit, umask: print without arguments, change the shell otherwise. */
export const shellStateRule: Rule = (inv, out) => {
  const listing = inv.args.every((a) => a.value !== undefined && /^(-[apS]|-o|\+o|-p)$/.test(a.value));
  if (listing) out.green(`${inv.name} only prints settings`);
  else out.yellow(`${inv.name} changes how the shell behaves`);
};

export const historyRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args);
  if (o.has('-c')) out.yellow('history -c clears the shell history');
  else if (o.has('-d', '-w', '-a', '-r', '-n', '-s', '-p')) out.yellow('history changes the history list or file');
  else out.green('history only prints');
};
