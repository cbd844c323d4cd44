/** Rules for commands that run others with raised or other privileges: sudo, doas, su, gosu … */
import { parseOptions, shellText, shown, type Arg, type OptionSpec } from './arguments';
import { checkPath } from './pathChecks';
import type { Rule } from './rule';

const PRIVILEGE_SPEC: OptionSpec = {
  short: { u: 'user', g: 'group', e: 'edit', s: 'shell', i: 'login', l: 'list', E: 'preserve-env', H: 'set-home', n: 'non-interactive', b: 'background', k: 'reset-timestamp', K: 'remove-timestamp', v: 'validate', S: 'stdin', A: 'askpass', C: 'close-from', D: 'chdir', h: 'host', p: 'prompt', r: 'role', t: 'type', T: 'command-timeout', U: 'other-user' },
  long: { user: 'user', group: 'group', edit: 'edit', shell: 'shell', login: 'login', list: 'list', 'preserve-env': 'preserve-env', 'set-home': 'set-home', 'non-interactive': 'non-interactive', background: 'background', 'reset-timestamp': 'reset-timestamp', 'remove-timestamp': 'remove-timestamp', validate: 'validate', stdin: 'stdin', askpass: 'askpass', 'close-from': 'close-from', chdir: 'chdir', host: 'host', prompt: 'prompt', role: 'role', type: 'type', 'command-timeout': 'command-timeout', 'other-user': 'other-user', chroot: 'chroot' },
  shortValue: 'ugCDhprtTUR',
  longValue: ['user', 'group', 'close-from', 'chdir', 'host', 'prompt', 'role', 'type', 'command-timeout', 'other-user', 'chroot'],
  stopAtOperand: true,
};

/** sudo, doas, pkexec, run0: RED themselves; what they run is classified too, for the reasons. */
export const privilegeRule: Rule = (inv, out, env) => {
  const spec: OptionSpec = inv.name === 'doas' ? { shortValue: 'uC', short: { u: 'user', s: 'shell', n: 'non-interactive' }, stopAtOperand: true } : PRIVILEGE_SPEC;
  const o = parseOptions(inv.args, spec);
  out.addFlags(o.display);
  const who = o.value('user') ? `as ${shown(o.value('user') as Arg)}` : 'as root';
  if (inv.name === 'sudoedit' || o.has('edit')) {
    for (const file of o.operands) checkPath(file, 'write', out, env.paths);
    return out.red(`${inv.name} edits ${o.operands.map(shown).join(' ')} ${who}`);
  }
  const [command] = o.operands;
  if (!command) {
    if (o.has('shell', 'login')) return out.red(`${inv.name} opens a shell ${who}`);
    return out.red(`${inv.name} uses administrator rights`);
  }
  env.nestedArgv(o.operands, inv.name, inv.stdin);
  out.red(`${inv.name} runs ${shown(command)} ${who}`);
};

export const suRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { short: { c: 'command', s: 'shell', l: 'login', m: 'preserve-environment', p: 'preserve-environment', g: 'group', G: 'supp-group' }, shortValue: 'csgGw', long: { command: 'command', shell: 'shell', login: 'login', 'preserve-environment': 'preserve-environment', group: 'group', 'supp-group': 'supp-group', pty: 'pty', 'session-command': 'command' }, longValue: ['command', 'shell', 'group', 'supp-group', 'whitelist-environment'] });
  const user = o.operands.find((a) => a.value !== '-');
  const who = user ? `as ${shown(user)}` : 'as root';
  const command = o.value('command');
  if (command) {
    env.nestedSource(shellText(command), 'su -c');
    return out.red(`su -c runs ${shellText(command)} ${who}`);
  }
  out.red(`su opens a shell ${who}`);
};

/** gosu, su-exec, runuser, setpriv: switch user (only possible as root already) and run a command. */
export const switchUserRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { stopAtOperand: true, shortValue: 'ugc', longValue: ['user', 'group', 'command', 'reuid', 'regid', 'groups'] });
  const argv = inv.name === 'gosu' || inv.name === 'su-exec' ? o.operands.slice(1) : o.operands;
  if (argv.length > 0) env.nestedArgv(argv, inv.name, inv.stdin);
  out.yellow(`${inv.name} runs a command as another user`);
};
