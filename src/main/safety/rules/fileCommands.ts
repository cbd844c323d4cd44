/** Rules for commands that write, move, delete or change files: cp, mv, install, ln, rm, dd, chmod, chown, find -delete … */
import { posix } from 'node:path';
import { dropPrefix, literalArg, parseOptions, shown, unknownArg, type Arg, type OptionSpec, type ParsedOptions } from './arguments';
import { checkPath } from './pathChecks';
import { patternCovers } from './pathPatterns';
import type { PathContext } from './pathContext';
import type { Rule, RuleEnv } from './rule';
import { Verdict } from './verdict';
import { resolveWord } from './wordPaths';

/** `dir/name`: the path a copy lands at when the destination is a directory. */
function joinArg(dir: Arg, name: string): Arg {
  const parts = [...dir.word.parts];
  const last = parts[parts.length - 1];
  // The slash goes into an unquoted literal, so `~` + `/name` is still `~/name` to tilde expansion.
  if (last?.type === 'literal' && !last.quoted) parts[parts.length - 1] = { ...last, value: `${last.value}/` };
  else parts.push({ type: 'literal', value: '/', quoted: false });
  parts.push({ type: 'literal', value: name, quoted: true });
  return { word: { text: `${dir.text}/${name}`, parts }, text: `${dir.text}/${name}`, value: dir.value === undefined ? undefined : `${dir.value}/${name}` };
}

function basenameOf(arg: Arg): string | undefined {
  const v = arg.value?.replace(/\/+$/, '');
  if (!v) return undefined;
  const base = posix.basename(v);
  return base && base !== '.' && base !== '..' ? base : undefined;
}

/** Destination checks of cp/mv/install/ln: the destination, and `dest/name` when it is a directory above a protected path. */
function checkDestination(dest: Arg, sources: readonly Arg[], out: Verdict, paths: PathContext): void {
  checkPath(dest, 'write', out, paths);
  const known = resolveWord(dest.word, paths).known;
  if (!known.some((p) => paths.protectedPaths.some((pp) => patternCovers(p, pp)))) return;
  for (const source of sources) {
    const base = basenameOf(source);
    if (base) checkPath(joinArg(dest, base), 'write', out, paths);
  }
}

function copyTargets(o: ParsedOptions): { dest?: Arg; sources: Arg[] } {
  const target = o.value('target-directory');
  if (target) return { dest: target, sources: o.operands };
  if (o.operands.length >= 2) return { dest: o.operands[o.operands.length - 1], sources: o.operands.slice(0, -1) };
  return { sources: o.operands };
}

const COPY_SPEC: OptionSpec = {
  short: { r: 'recursive', R: 'recursive', a: 'archive', f: 'force', t: 'target-directory', T: 'no-target-directory', S: 'suffix', b: 'backup', n: 'no-clobber', i: 'interactive', v: 'verbose', u: 'update', l: 'link', s: 'symbolic', p: 'preserve', d: 'directory', m: 'mode', g: 'group', o: 'owner', D: 'D' },
  long: { recursive: 'recursive', archive: 'archive', force: 'force', 'target-directory': 'target-directory', 'no-target-directory': 'no-target-directory', suffix: 'suffix', backup: 'backup', 'no-clobber': 'no-clobber', interactive: 'interactive', verbose: 'verbose', update: 'update', link: 'link', 'symbolic-link': 'symbolic', symbolic: 'symbolic', preserve: 'preserve', directory: 'directory', mode: 'mode', group: 'group', owner: 'owner', 'no-dereference': 'no-dereference', relative: 'relative', 'strip-trailing-slashes': 'strip-trailing-slashes' },
  shortValue: 'tS',
  longValue: ['target-directory', 'suffix'],
};
const INSTALL_SPEC: OptionSpec = { ...COPY_SPEC, shortValue: 'tSmgo', longValue: ['target-directory', 'suffix', 'mode', 'group', 'owner'] };

export const cpRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, COPY_SPEC);
  out.addFlags(o.display);
  const { dest, sources } = copyTargets(o);
  if (dest) checkDestination(dest, sources, out, env.paths);
  out.yellow(`${inv.name} copies files`);
};

export const mvRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, COPY_SPEC);
  out.addFlags(o.display);
  const { dest, sources } = copyTargets(o);
  for (const source of sources) checkPath(source, 'move-away', out, env.paths, { label: 'mv', verb: 'moves' });
  if (dest) checkDestination(dest, sources, out, env.paths);
  out.yellow('mv moves or renames files');
};

export const installRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, INSTALL_SPEC);
  out.addFlags(o.display);
  if (o.has('directory')) for (const dir of o.operands) checkPath(dir, 'write', out, env.paths);
  else {
    const { dest, sources } = copyTargets(o);
    if (dest) checkDestination(dest, sources, out, env.paths);
  }
  out.yellow('install copies files into place');
};

export const lnRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, COPY_SPEC);
  out.addFlags(o.display);
  const { dest, sources } = copyTargets(o);
  if (dest) checkDestination(dest, sources, out, env.paths);
  else for (const source of sources) {
    const base = basenameOf(source);
    checkPath(base ? literalArg(base) : unknownArg(source.text), 'write', out, env.paths);
  }
  out.yellow('ln creates links');
};

const RM_SPEC: OptionSpec = {
  short: { r: 'recursive', R: 'recursive', f: 'force', i: 'interactive', I: 'interactive', d: 'dir', v: 'verbose' },
  long: { recursive: 'recursive', force: 'force', interactive: 'interactive', dir: 'dir', verbose: 'verbose', 'no-preserve-root': 'no-preserve-root', 'preserve-root': 'preserve-root', 'one-file-system': 'one-file-system', help: 'help', version: 'version' },
};

/** `rm -r -f`, from whatever spelling was used. */
function rmLabel(o: ParsedOptions): string {
  const flags = [o.has('recursive') ? '-r' : '', o.has('force') ? '-f' : ''].filter(Boolean);
  if (o.maybeAnyOption && !o.has('recursive')) flags.push('(options known only at run time)');
  return ['rm', ...flags].join(' ');
}

export const rmRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, RM_SPEC);
  out.addFlags(o.display);
  if (o.has('help', 'version') && o.operands.length === 0) return out.green('rm only prints its help');
  const recursive = o.has('recursive') || o.maybeAnyOption;
  const label = rmLabel(o);
  for (const operand of o.operands) checkPath(operand, recursive ? 'delete-tree' : 'delete', out, env.paths, { label, verb: 'deletes' });
  if (o.has('no-preserve-root')) out.red('rm --no-preserve-root turns off the protection of /');
  out.yellow(o.has('recursive') ? 'rm -r deletes directories and everything in them' : recursive ? 'rm deletes files (with options known only at run time)' : 'rm deletes files');
};

export const deleteRule =
  (label: string, spec: OptionSpec = {}): Rule =>
  (inv, out, env) => {
    const o = parseOptions(inv.args, spec);
    out.addFlags(o.display);
    for (const operand of o.operands) checkPath(operand, 'delete', out, env.paths, { label });
    out.yellow(`${label} deletes files`);
  };

const writeOperandsRule =
  (what: string, spec: OptionSpec = {}): Rule =>
  (inv, out, env) => {
    const o = parseOptions(inv.args, spec);
    out.addFlags(o.display);
    for (const operand of o.operands) checkPath(operand, 'write', out, env.paths);
    out.yellow(what);
  };

export const ddRule: Rule = (inv, out, env) => {
  for (const arg of inv.args) {
    const v = arg.value ?? arg.text;
    if (v.startsWith('of=')) checkPath(dropPrefix(arg, 3), 'write', out, env.paths);
  }
  out.yellow('dd copies raw data');
};

export const truncateRule = writeOperandsRule('truncate cuts files short', { shortValue: 'sr', longValue: ['size', 'reference'], long: { size: 'size', reference: 'reference', 'no-create': 'no-create', 'io-blocks': 'io-blocks' } });
export const touchRule = writeOperandsRule('touch creates files or updates their times', { shortValue: 'drt', longValue: ['date', 'reference'], long: { date: 'date', reference: 'reference' } });
export const mkdirRule = writeOperandsRule('mkdir creates directories', { short: { p: 'parents', m: 'mode', v: 'verbose' }, shortValue: 'm', longValue: ['mode'], long: { parents: 'parents', mode: 'mode', verbose: 'verbose' } });

const PERMISSION_SPEC: OptionSpec = {
  short: { R: 'recursive', f: 'silent', v: 'verbose', c: 'changes', h: 'no-dereference', H: 'H', L: 'L', P: 'P' },
  long: { recursive: 'recursive', silent: 'silent', quiet: 'silent', verbose: 'verbose', changes: 'changes', reference: 'reference', from: 'from', 'no-dereference': 'no-dereference', dereference: 'dereference', 'preserve-root': 'preserve-root', 'no-preserve-root': 'no-preserve-root' },
};

/** chmod, chown, chgrp, chattr, setfacl: the first operand is the mode/owner unless --reference gives it. */
export const permissionRule =
  (verb: string): Rule =>
  (inv, out, env) => {
    const args = inv.name === 'chmod' ? inv.args.map((a) => (a.value && /^-[rwxXst]+$/.test(a.value) ? literalArg(a.value.replace(/^-/, 'a-')) : a)) : inv.args;
    const spec: OptionSpec = inv.name === 'setfacl' ? { ...PERMISSION_SPEC, shortValue: 'mMxX', short: { ...PERMISSION_SPEC.short, b: 'remove-all', k: 'remove-default' } } : PERMISSION_SPEC;
    const o = parseOptions(args, spec);
    out.addFlags(o.display);
    const recursive = o.has('recursive') || o.maybeAnyOption;
    const explicitMode = o.has('reference') || inv.name === 'setfacl' || (inv.name === 'chattr' && [...o.flags].some((f) => /^-[a-zA-Z]$/.test(f)));
    const [mode, ...rest] = o.operands;
    const targets = explicitMode ? o.operands : rest;
    if (inv.name === 'chmod' && mode?.value && /(^|[,ugoa])[-+=][rwxXt]*s|^[2-7]\d{3}$/.test(mode.value) && !explicitMode) out.yellow('chmod sets the setuid/setgid bit');
    if (inv.name === 'chmod' && mode?.value && /^0?777$|^a?\+rwx$|^o\+w/.test(mode.value) && !explicitMode) out.yellow('chmod makes files writable by everyone');
    const label = `${inv.name}${recursive ? ' -R' : ''}`;
    for (const target of targets) checkPath(target, recursive ? 'modify-tree' : 'modify', out, env.paths, { label, verb });
    if (o.has('no-preserve-root')) out.red(`${inv.name} --no-preserve-root turns off the protection of /`);
    out.yellow(`${inv.name} ${verb} files`);
  };

const FIND_VALUE_TESTS: ReadonlySet<string> = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-type', '-xtype', '-size', '-mtime', '-mmin',
  '-atime', '-amin', '-ctime', '-cmin', '-newer', '-anewer', '-cnewer', '-user', '-group', '-uid', '-gid', '-perm', '-maxdepth',
  '-mindepth', '-links', '-inum', '-samefile', '-lname', '-ilname', '-fstype', '-context', '-printf', '-used', '-regextype', '-files0-from',
]);
/** Tests that narrow what find matches (so `find ~ -name '*.pyc' -delete` is not `rm -rf ~`). `-type` does not narrow enough. */
const FIND_FILTERS: ReadonlySet<string> = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-size', '-mtime', '-mmin', '-atime', '-amin',
  '-ctime', '-cmin', '-newer', '-anewer', '-cnewer', '-user', '-group', '-uid', '-gid', '-perm', '-links', '-inum', '-samefile', '-lname',
  '-ilname', '-empty', '-nouser', '-nogroup', '-used',
]);
/** Commands that delete (or move away) what they are given. */
export const DELETERS: ReadonlySet<string> = new Set(['rm', 'unlink', 'rmdir', 'shred', 'srm', 'wipe', 'truncate', 'mv']);

export const findRule: Rule = (inv, out, env) => {
  const args = inv.args;
  let i = 0;
  while (i < args.length && /^-([HLP]|O\d*|D)$/.test(args[i]?.value ?? '')) i += args[i]?.value === '-D' ? 2 : 1;
  const starts: Arg[] = [];
  for (; i < args.length; i++) {
    const v = (args[i] as Arg).value;
    if (v !== undefined && (v.startsWith('-') || v === '(' || v === '!' || v === ')' || v === ',')) break;
    starts.push(args[i] as Arg);
  }
  if (starts.length === 0) starts.push(literalArg('.'));
  let deletes = false;
  let filtered = false;
  const actions: string[] = [];
  for (; i < args.length; i++) {
    const v = (args[i] as Arg).value;
    if (v === undefined) {
      out.yellow('part of the find expression is known only at run time');
      continue;
    }
    if (v === '-delete') {
      deletes = true;
      actions.push('-delete');
    } else if (v === '-exec' || v === '-execdir' || v === '-ok' || v === '-okdir') {
      const argv: Arg[] = [];
      for (i++; i < args.length; i++) {
        const a = args[i] as Arg;
        if (a.value === ';' || (a.value === '+' && args[i - 1]?.value === '{}')) break;
        argv.push(a.value?.includes('{}') ? unknownArg(`${a.text} (each file found)`, true) : a);
      }
      const name = posix.basename(argv[0]?.value ?? '');
      if (DELETERS.has(name)) {
        deletes = true;
        actions.push(`${v} ${name}`);
      }
      env.nestedArgv(argv, `find ${v}`);
    } else if (v === '-fprint' || v === '-fprint0' || v === '-fls' || v === '-fprintf') {
      const file = args[++i];
      if (v === '-fprintf') i++;
      if (file) checkPath(file, 'write', out, env.paths);
    } else {
      if (FIND_FILTERS.has(v) || /^-newer[acmBt]{2}$/.test(v)) filtered = true;
      if (FIND_VALUE_TESTS.has(v) || /^-newer[acmBt]{2}$/.test(v)) i++;
    }
  }
  if (deletes) {
    const label = `find ${actions.join(' ')}`;
    const otherwise = `${label} deletes what it matches under ${starts.map(shown).join(' ')}`;
    for (const start of starts) checkPath(start, filtered ? 'delete' : 'delete-tree', out, env.paths, { label, verb: 'deletes', otherwise });
  }
  out.green('find only lists files');
};

/** `$CMD -rf /`: if an unknown command name could be rm, would these arguments be a catastrophe? */
export function rmCatastrophe(args: readonly Arg[], env: RuleEnv): string | undefined {
  const o = parseOptions(args, RM_SPEC);
  if (!o.has('recursive')) return undefined;
  const sim = new Verdict();
  rmRule({ name: 'rm', args: [...args], stdin: { kind: 'terminal' } }, sim, env);
  return sim.level === 'red' ? sim.reason : undefined;
}
