/**
 * Rules for bash builtins that only read or set variables, and the check they share: a word bash
 * evaluates as arithmetic (a subscript, `let`'s expressions) runs the `$( )` quoted in it.
 */
import { dropPrefix, literalArg, parseOptions, shellText, shown, type Arg } from './arguments';
import { runsCommandText } from './readers';
import type { Rule, RuleEnv } from './rule';
import type { Verdict } from './verdict';

/** The bodies of `$( … )` and backticks in text the shell has not expanded yet (quoted text bash later evaluates as arithmetic). */
export function substitutionsIn(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '$' && text[i + 1] === '(' && text[i + 2] !== '(') {
      let depth = 1;
      let j = i + 2;
      for (; j < text.length && depth > 0; j++) {
        if (text[j] === '(') depth++;
        else if (text[j] === ')') depth--;
      }
      found.push(text.slice(i + 2, depth === 0 ? j - 1 : j));
      i = j - 1;
    } else if (text[i] === '`') {
      const end = text.indexOf('`', i + 1);
      found.push(text.slice(i + 1, end < 0 ? text.length : end));
      i = end < 0 ? text.length : end;
    }
  }
  return found;
}

/** Whether text holds a command substitution that bash would run when it evaluates the text as arithmetic (`a[$(cmd)]`). */
export function hasSubstitution(text: string): boolean {
  return /\$\(|`/.test(text);
}

/**
 * Words bash evaluates as arithmetic or as a variable name with a subscript (`let`, `read`, `printf -v`,
 * `test -v`, `unset`, `declare` …): a `$( )` quoted in them still runs, when bash evaluates the subscript.
 */
export function checkArithmeticWords(words: readonly Arg[], what: string, out: Verdict, env: RuleEnv): void {
  for (const word of words) {
    const text = word.value ?? shellText(word);
    if (!hasSubstitution(text)) continue;
    out.yellow(`${what} evaluates ${text} as arithmetic, which runs the command in it`);
    for (const body of substitutionsIn(text)) env.nestedSource(body, `${what} (arithmetic subscript)`);
  }
}

export const letRule: Rule = (inv, out, env) => {
  checkArithmeticWords(inv.args, 'let', out, env);
  out.green('let only does arithmetic');
};

export const readRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'adinNptu' });
  checkArithmeticWords([...(o.values.get('-a') ?? []), ...o.operands], 'read', out, env);
  out.green('read only reads its input');
};

export const printfRule: Rule = (inv, out, env) => {
  const v = inv.args[0]?.value === '-v' ? inv.args[1] : inv.args[0]?.value?.startsWith('-v') ? dropPrefix(inv.args[0], 2) : undefined;
  if (v) checkArithmeticWords([v], 'printf -v', out, env);
  out.green('printf only prints');
};

export const testRule: Rule = (inv, out, env) => {
  const named = inv.args.flatMap((a, i) => (a.value === '-v' || a.value === '-R' ? [inv.args[i + 1]].filter((x): x is Arg => x !== undefined) : []));
  checkArithmeticWords(named, inv.name === '[' ? '[ -v' : 'test -v', out, env);
  out.green(`${inv.name} only tests`);
};

/** `wait -p VAR`, `getopts OPTSTRING VAR`, `mapfile ARRAY`: the name they set. */
export const waitRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'p' });
  checkArithmeticWords(o.values.get('-p') ?? [], 'wait -p', out, env);
  out.green('wait only waits');
};

/** `jobs -x COMMAND ARGS…` runs COMMAND (with job specs replaced by process group ids). */
export const jobsRule: Rule = (inv, out, env) => {
  const x = inv.args.findIndex((a) => a.value !== undefined && /^-[lnprs]*x[lnprs]*$/.test(a.value));
  if (x >= 0) {
    const argv = inv.args.slice(x + 1);
    if (argv.length === 0) return out.yellow('jobs -x runs a command');
    env.nestedArgv(argv, 'jobs -x', inv.stdin);
    return out.green(`jobs -x runs ${shown(argv[0] as Arg)}`);
  }
  out.green('jobs only lists jobs');
};

export const hashRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { shortValue: 'pt' });
  if (o.has('-p')) return out.yellow(`hash -p makes ${o.operands.map(shown).join(' ') || 'a command name'} run ${shown(o.value('-p') ?? literalArg('another program'))}`);
  if (o.has('-r', '-d')) return out.yellow('hash -r/-d changes the table of remembered command paths');
  out.green('hash only lists remembered command paths');
};

export const compgenRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'ACFGPSWXoV' });
  if (o.has('-C')) runsCommandText(o.value('-C'), 'compgen -C', out, env);
  if (o.has('-F')) out.yellow(`compgen -F runs the shell function ${shown(o.value('-F') ?? literalArg('named'))}`);
  if (o.has('-V')) out.yellow('compgen -V sets a shell variable');
  out.green('compgen only lists completions');
};

export const BUILTIN_RULES: Readonly<Record<string, Rule>> = {
  let: letRule,
  read: readRule,
  printf: printfRule,
  test: testRule,
  '[': testRule,
  wait: waitRule,
  hash: hashRule,
  jobs: jobsRule,
  compgen: compgenRule,
};
