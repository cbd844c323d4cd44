/** Rules for wrappers: commands that run other commands (env, timeout, nice, xargs, watch …). */
import { literalArg, parseOptions, shellText, shown, unknownArg, type Arg, type OptionSpec } from './arguments';
import { checkPath } from './pathChecks';
import type { Rule } from './rule';
import { changesWhatRuns } from '../shellVariables';

/** `cmd ARGS…` after a wrapper's own options; the wrapper itself is `level`. */
function wrapper(spec: OptionSpec, level: 'green' | 'yellow', what: (name: string) => string, skip = 0): Rule {
  return (inv, out, env) => {
    const o = parseOptions(inv.args, { ...spec, stopAtOperand: true });
    out.addFlags(o.display);
    const argv = o.operands.slice(skip);
    if (argv.length === 0) return out.raise(level, `${inv.name} without a command`);
    env.nestedArgv(argv, inv.name, inv.stdin);
    out.raise(level, what(shown(argv[0] as Arg)));
  };
}

export const envRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { short: { i: 'ignore-environment', '0': 'null', u: 'unset', C: 'chdir', S: 'split-string', v: 'debug', P: 'path' }, shortValue: 'uCSP', long: { 'ignore-environment': 'ignore-environment', null: 'null', unset: 'unset', chdir: 'chdir', 'split-string': 'split-string', debug: 'debug', 'block-signal': 'block-signal', 'default-signal': 'default-signal', 'ignore-signal': 'ignore-signal', 'list-signal-handling': 'list-signal-handling' }, longValue: ['unset', 'chdir', 'split-string'], stopAtOperand: true });
  out.addFlags(o.display);
  let argv = o.operands;
  while (argv[0]?.value !== undefined && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0].value) || argv[0].value === '-')) {
    const name = argv[0].value.split('=')[0] as string;
    if (changesWhatRuns(name)) out.yellow(`env sets ${name}, which changes what programs load or run`);
    argv = argv.slice(1);
  }
  const split = o.value('split-string');
  if (split) {
    env.nestedSource([shellText(split), ...argv.map((a) => shellText(a, env.paths))].join(' '), 'env -S');
    return out.green('env runs the command shown');
  }
  if (argv.length === 0) return out.green('env only prints the environment');
  env.nestedArgv(argv, 'env', inv.stdin);
  out.green(`env runs ${shown(argv[0] as Arg)}`);
};

export const commandRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { stopAtOperand: true });
  if (o.has('-v', '-V')) return out.green(`${inv.name} -v only looks a command up`);
  if (o.operands.length === 0) return out.green(`${inv.name} without a command`);
  env.nestedArgv(o.operands, inv.name, inv.stdin);
  out.green(`${inv.name} runs ${shown(o.operands[0] as Arg)}`);
};

export const execRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'a', stopAtOperand: true });
  if (o.operands.length === 0) return out.green('exec only redirects');
  env.nestedArgv(o.operands, 'exec', inv.stdin);
  out.yellow(`exec replaces the shell with ${shown(o.operands[0] as Arg)}`);
};

export const timeRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { short: { o: 'output', f: 'format' }, shortValue: 'of', long: { output: 'output', format: 'format', append: 'append', verbose: 'verbose', portability: 'portability', quiet: 'quiet' }, longValue: ['output', 'format'], stopAtOperand: true });
  for (const file of o.values.get('output') ?? []) checkPath(file, 'write', out, env.paths);
  if (o.operands.length > 0) env.nestedArgv(o.operands, 'time', inv.stdin);
  out.green('time only measures');
};

export const timeoutRule = wrapper({ shortValue: 'ks', long: { 'kill-after': 'kill-after', signal: 'signal', 'preserve-status': 'preserve-status', foreground: 'foreground', verbose: 'verbose' }, longValue: ['kill-after', 'signal'] }, 'green', (c) => `timeout runs ${c} with a time limit`, 1);
export const niceRule = wrapper({ shortValue: 'n', long: { adjustment: 'adjustment' }, longValue: ['adjustment'] }, 'green', (c) => `nice runs ${c} at another priority`);
export const stdbufRule = wrapper({ shortValue: 'ioe', longValue: ['input', 'output', 'error'] }, 'green', (c) => `stdbuf runs ${c}`);
export const nohupRule = wrapper({}, 'yellow', (c) => `nohup keeps ${c} running after the terminal closes`);
export const setsidRule = wrapper({}, 'yellow', (c) => `setsid runs ${c} detached from the terminal`);
export const unbufferRule = wrapper({}, 'green', (c) => `unbuffer runs ${c}`);
export const caffeinateRule = wrapper({ shortValue: 'tw' }, 'green', (c) => `caffeinate runs ${c}`);
export const firejailRule = wrapper({}, 'green', (c) => `firejail runs ${c} in a sandbox`);
export const chrootRule = wrapper({ longValue: ['userspec', 'groups'] }, 'yellow', (c) => `chroot runs ${c} in another root directory`, 1);
export const unshareRule = wrapper({ shortValue: 'SGRw', longValue: ['setuid', 'setgid', 'root', 'wd', 'propagation', 'map-user', 'map-group'] }, 'yellow', (c) => `unshare runs ${c} in new namespaces`);
export const nsenterRule = wrapper({ shortValue: 'tSGrw', longValue: ['target', 'setuid', 'setgid', 'root', 'wd'] }, 'yellow', (c) => `nsenter runs ${c} in another process's namespaces`);
export const systemdRunRule = wrapper({ shortValue: 'pEMHu', longValue: ['property', 'setenv', 'machine', 'host', 'unit', 'description', 'slice', 'uid', 'gid', 'nice', 'working-directory', 'on-active', 'on-boot', 'on-startup', 'on-unit-active', 'on-unit-inactive', 'on-calendar', 'timer-property', 'path-property', 'socket-property', 'service-type'] }, 'yellow', (c) => `systemd-run starts ${c} as a service`);
export const busyboxRule = wrapper({}, 'green', (c) => `busybox runs ${c}`);

export const ioniceRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'cnpPu', long: { class: 'class', classdata: 'classdata', pid: 'pid', pgid: 'pgid', uid: 'uid', ignore: 'ignore' }, longValue: ['class', 'classdata', 'pid', 'pgid', 'uid'], stopAtOperand: true });
  if (o.has('-p', '-P', '-u', 'pid', 'pgid', 'uid')) return out.yellow('ionice changes the priority of running processes');
  if (o.operands.length > 0) env.nestedArgv(o.operands, 'ionice', inv.stdin);
  out.green('ionice runs a command at another priority');
};

export const tasksetRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { stopAtOperand: true });
  if (o.has('-p', '--pid')) return out.yellow('taskset changes the CPU affinity of a running process');
  if (o.operands.length > 1) env.nestedArgv(o.operands.slice(1), 'taskset', inv.stdin);
  out.green('taskset runs a command on chosen CPUs');
};

export const chrtRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'TPD', stopAtOperand: true });
  if (o.has('-p', '--pid')) return out.yellow('chrt changes the scheduling of a running process');
  if (o.operands.length > 1) env.nestedArgv(o.operands.slice(1), 'chrt', inv.stdin);
  out.yellow('chrt changes scheduling priority');
};

export const flockRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'wE', longValue: ['timeout', 'conflict-exit-code'], stopAtOperand: true });
  const [, next, ...rest] = o.operands;
  if (next && (next.value === '-c' || next.value === '--command') && rest[0]) env.nestedSource(shellText(rest[0]), 'flock -c');
  else if (next) env.nestedArgv(o.operands.slice(1), 'flock', inv.stdin);
  out.green('flock runs a command under a lock');
};

export const scriptRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { short: { c: 'command', a: 'append', q: 'quiet', f: 'flush', e: 'return' }, shortValue: 'cIOBTEm', long: { command: 'command' }, longValue: ['command', 'log-in', 'log-out', 'log-io', 'log-timing', 'echo', 'logging-format'] });
  const command = o.value('command');
  if (command) env.nestedSource(shellText(command), 'script -c');
  const file = o.operands[0] ?? literalArg('typescript');
  checkPath(file, 'write', out, env.paths);
  out.yellow('script records the terminal session to a file');
};

export const watchRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { short: { n: 'interval', x: 'exec', d: 'differences' }, shortValue: 'nq', shortOptionalValue: 'd', long: { interval: 'interval', exec: 'exec', differences: 'differences' }, longValue: ['interval'], stopAtOperand: true });
  if (o.operands.length === 0) return out.green('watch without a command');
  if (o.has('exec')) env.nestedArgv(o.operands, 'watch -x', inv.stdin);
  else env.nestedSource(o.operands.map((a) => shellText(a, env.paths)).join(' '), 'watch');
  out.green('watch runs a command repeatedly');
};

const XARGS_SPEC: OptionSpec = {
  short: { '0': 'null', r: 'no-run-if-empty', t: 'verbose', p: 'interactive', x: 'exit', o: 'open-tty', I: 'replace', i: 'replace', a: 'arg-file', d: 'delimiter', n: 'max-args', P: 'max-procs', L: 'max-lines', l: 'max-lines', s: 'max-chars', E: 'eof', e: 'eof' },
  long: { null: 'null', 'no-run-if-empty': 'no-run-if-empty', verbose: 'verbose', interactive: 'interactive', exit: 'exit', 'open-tty': 'open-tty', replace: 'replace', 'arg-file': 'arg-file', delimiter: 'delimiter', 'max-args': 'max-args', 'max-procs': 'max-procs', 'max-lines': 'max-lines', 'max-chars': 'max-chars', eof: 'eof', 'process-slot-var': 'process-slot-var', 'show-limits': 'show-limits' },
  shortValue: 'IadnPLsE',
  shortOptionalValue: 'iel',
  longValue: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
  stopAtOperand: true,
};

export const xargsRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, XARGS_SPEC);
  out.addFlags(o.display);
  const argv = o.operands.length > 0 ? o.operands : [literalArg('echo')];
  const replace = o.value('replace')?.value ?? (o.has('replace') ? '{}' : undefined);
  const items = 'items read from standard input';
  const withItems = replace !== undefined ? argv.map((a, i) => (i > 0 && a.value?.includes(replace) ? unknownArg(`${a.text} (${items})`) : a)) : [...argv, unknownArg(`(${items})`)];
  const first = withItems[0] as Arg;
  if (replace !== undefined && first.value === undefined) out.yellow('xargs runs a command named by its input');
  env.nestedArgv(withItems, 'xargs');
  out.green(`xargs runs ${shown(first)} on its input`);
};
