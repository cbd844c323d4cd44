/** Rules for commands that change the system: clock, hostname, processes, cron, mounts, network settings, services, power, disks, desktop settings. */
import { parseOptions, shown } from './arguments';
import type { Rule } from './rule';

export const dateRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { short: { s: 'set', d: 'date', f: 'file', r: 'reference' }, shortValue: 'sdfrI', long: { set: 'set', date: 'date', file: 'file', reference: 'reference' }, longValue: ['set', 'date', 'file', 'reference'] });
  if (o.has('set') || o.operands.some((a) => a.value !== undefined && /^\d{4,}/.test(a.value))) out.yellow('date sets the system clock');
  else out.green('date only prints');
};

export const hostnameRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { short: { F: 'file', b: 'boot' }, shortValue: 'F', long: { file: 'file', boot: 'boot' }, longValue: ['file'] });
  if (o.operands.length > 0 || o.has('file', 'boot')) out.yellow('hostname renames the machine');
  else out.green('hostname only prints');
};

export const killRule: Rule = (inv, out) => {
  const args = inv.args.map((a) => a.value ?? a.text);
  if (args.some((a) => a === '-l' || a === '-L' || a.startsWith('--list') || a === '--table')) return out.green('kill only lists signals');
  let i = 0;
  if (args[0] === '-s' || args[0] === '-n' || args[0] === '--signal') i = 2;
  else if (args[0]?.startsWith('-') && args[0] !== '--') i = 1;
  if (args[i] === '--') i++;
  const pids = args.slice(i);
  if (pids.includes('-1')) out.red('kill -1 signals every process you are allowed to signal');
  else if (pids.includes('1')) out.red('kill 1 signals init, the first process');
  out.yellow('kill stops or signals processes');
};

export const crontabRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { shortValue: 'uc' });
  if (o.has('-r')) out.red('crontab -r deletes all your cron jobs, without asking');
  else if (o.has('-l') && o.operands.length === 0) out.green('crontab -l only lists');
  else out.yellow('crontab changes scheduled jobs');
};

export const dmesgRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { long: { clear: 'clear', 'read-clear': 'read-clear', 'console-off': 'console-off', 'console-on': 'console-on', 'console-level': 'console-level' } });
  if (o.has('-c', '-C', '-D', '-E', '-n', 'clear', 'read-clear', 'console-off', 'console-on', 'console-level')) out.yellow('dmesg changes the kernel log');
  else out.green('dmesg only reads');
};

export const mountRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { shortValue: 'tOo' });
  if (o.operands.length === 0 && !o.has('-a', '--all', '-o')) out.green('mount only lists mounts');
  else out.yellow('mount changes what is mounted');
};

export const ipRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { stopAtOperand: true, shortValue: 'fbn', long: { family: 'family', batch: 'batch', netns: 'netns' }, longValue: ['family', 'batch', 'netns'] });
  const [object, verb] = o.operands.map((a) => a.value);
  if (o.has('-b', 'batch')) out.yellow('ip runs a batch file');
  else if (object === undefined || verb === undefined || /^(show|list|lst|ls|get|s|l|help)$/.test(verb) || (object === 'monitor' || object === 'help')) out.green('ip only shows network state');
  else out.yellow(`ip ${object} ${verb} changes network settings`);
};

export const ifconfigRule: Rule = (inv, out) => {
  const operands = inv.args.filter((a) => !(a.value ?? '').startsWith('-'));
  if (operands.length <= 1) out.green('ifconfig only shows interfaces');
  else out.yellow('ifconfig changes network settings');
};

export const journalctlRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { shortValue: 'unpSUkbtoDFMIm', longValue: ['unit', 'lines', 'priority', 'since', 'until', 'output', 'directory', 'file', 'boot', 'identifier', 'grep', 'namespace', 'root', 'image', 'user-unit', 'field', 'facility', 'cursor', 'after-cursor'] });
  const changing = [...o.flags].filter((f) => /^--(vacuum-|rotate|flush|sync|relinquish-var|smart-relinquish-var|setup-keys|update-catalog)/.test(f));
  if (changing.length > 0) out.yellow(`journalctl ${changing.join(' ')} changes the journal`);
  else out.green('journalctl only reads logs');
};

const SYSTEMCTL_READ = /^(status|show|cat|list-\w+|is-active|is-enabled|is-failed|is-system-running|get-default|help|show-environment|--version|version|check|dot|verify)$/;
const SYSTEMCTL_POWER = /^(poweroff|reboot|halt|kexec|emergency|rescue|soft-reboot|default)$/;

export const systemctlRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args, { shortValue: 'tpHMsnoS', long: { type: 'type', property: 'property', host: 'host', machine: 'machine', signal: 'signal', lines: 'lines', output: 'output', state: 'state', root: 'root', 'job-mode': 'job-mode', 'kill-whom': 'kill-whom', force: 'force' }, longValue: ['type', 'property', 'host', 'machine', 'signal', 'lines', 'output', 'state', 'root', 'job-mode', 'kill-whom', 'kill-value', 'what', 'boot-loader-entry', 'boot-loader-menu', 'reboot-argument', 'timestamp', 'message'] });
  const verb = o.operands[0]?.value;
  if (verb === undefined) {
    if (o.operands[0]) out.yellow('systemctl with a verb known only at run time');
    else out.green('systemctl only lists units');
  } else if (SYSTEMCTL_POWER.test(verb)) out.red(`systemctl ${verb} stops or restarts the whole system`);
  else if (verb === 'isolate' && /(rescue|emergency|poweroff|reboot|halt)/.test(o.operands[1]?.value ?? 'x')) out.red('systemctl isolate switches the system to a rescue or shutdown state');
  else if (SYSTEMCTL_READ.test(verb)) out.green(`systemctl ${verb} only reads`);
  else if (verb === 'suspend' || verb === 'hibernate' || verb === 'hybrid-sleep' || verb === 'suspend-then-hibernate') out.yellow(`systemctl ${verb} puts the machine to sleep`);
  else out.yellow(`systemctl ${verb} changes services`);
};

/** hostnamectl, timedatectl … : reading verbs are GREEN, the rest change settings. */
export const ctlRule =
  (power = false): Rule =>
  (inv, out) => {
    const o = parseOptions(inv.args, { shortValue: 'HMp', longValue: ['host', 'machine', 'property'] });
    const verb = o.operands[0]?.value;
    if (power && verb !== undefined && /^(poweroff|reboot|halt|kexec)$/.test(verb)) out.red(`${inv.name} ${verb} stops or restarts the whole system`);
    else if (verb === undefined && o.operands.length === 0) out.green(`${inv.name} only shows status`);
    else if (verb !== undefined && /^(status|show|show-\w+|list|list-\w+|query|statistics|help|dns|domain|session-status|user-status|seat-status|timesync-status)$/.test(verb)) out.green(`${inv.name} ${verb} only reads`);
    else out.yellow(`${inv.name} ${verb ?? ''} changes system settings`.replace('  ', ' '));
  };

export const shutdownRule: Rule = (inv, out) => {
  const o = parseOptions(inv.args);
  if (inv.name === 'shutdown' && o.has('-c')) out.yellow('shutdown -c cancels a pending shutdown');
  else if (o.has('--help')) out.green(`${inv.name} only prints its help`);
  else out.red(`${inv.name} stops or restarts the whole system`);
};

export const initRule: Rule = (inv, out) => {
  const level = inv.args.find((a) => !(a.value ?? '').startsWith('-'));
  if (!level) out.yellow(`${inv.name} without a runlevel`);
  else out.red(`${inv.name} ${shown(level)} changes the runlevel (0 halts, 6 reboots)`);
};

/** Formatting, partitioning and wiping disks. */
export const diskRule: Rule = (inv, out) => {
  const values = inv.args.map((a) => a.value ?? a.text);
  const devices = values.filter((v) => v.startsWith('/dev/'));
  const listing = values.some((v) => v === '-l' || v === '--list' || v === '-s' || v === '--show' || v === 'print' || v === '--help' || v === '-V' || v === '--version');
  const name = inv.name;
  if (/^(mkfs|mke2fs|mkswap|mkntfs|mkdosfs|mkexfatfs|newfs)/.test(name) || name === 'wipefs' || name === 'blkdiscard') {
    out.red(`${name} ${devices.join(' ') || ''} erases a file system: everything on it is lost`.replace('  ', ' '));
  } else if (listing && !values.some((v) => /^(mklabel|rm|mkpart|resizepart|--delete|-d)$/.test(v))) {
    out.yellow(`${name} reads the partition table`);
  } else if (devices.length > 0) out.red(`${name} ${devices.join(' ')} rewrites the partition table of a disk`);
  else out.yellow(`${name} edits partition tables`);
};

export const dconfRule: Rule = (inv, out) => {
  const [verb, ...rest] = inv.args.map((a) => a.value);
  if (verb === 'reset') {
    const dir = rest.find((v) => v !== undefined && v.startsWith('/'));
    if (rest.includes('-f') && (dir === undefined || /^\/([^/]+\/?){0,2}$/.test(dir))) out.red(`dconf reset -f ${dir ?? ''} wipes all the desktop settings under it`.trimEnd());
    else out.yellow('dconf reset resets desktop settings');
  } else if (verb === 'read' || verb === 'list' || verb === 'dump' || verb === 'watch' || verb === 'help') out.green(`dconf ${verb} only reads`);
  else out.yellow(`dconf ${verb ?? ''} changes desktop settings`.replace('  ', ' '));
};

export const gsettingsRule: Rule = (inv, out) => {
  const verb = inv.args.find((a) => !(a.value ?? '').startsWith('-'))?.value;
  if (verb !== undefined && /^(get|list-\w+|range|describe|writable|monitor|help)$/.test(verb)) out.green(`gsettings ${verb} only reads`);
  else out.yellow('gsettings changes desktop settings');
};
