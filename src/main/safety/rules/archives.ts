/** Rules for archivers and compressors: tar, unzip, gzip, 7z … */
import { literalArg, parseOptions, shown } from './arguments';
import { credentialIn, rememberCredentialCopy } from './credentialFiles';
import { checkPath } from './pathChecks';
import { unescapeGlob } from './pathPatterns';
import type { Rule } from './rule';
import { resolveWord } from './wordPaths';

export const tarRule: Rule = (inv, out, env) => {
  const args = [...inv.args];
  const first = args[0]?.value;
  if (first !== undefined && /^[a-zA-Z]+$/.test(first)) args[0] = literalArg(`-${first}`);
  const o = parseOptions(args, {
    short: { x: 'extract', c: 'create', t: 'list', r: 'append', u: 'update', f: 'file', C: 'directory', I: 'use-compress-program', F: 'info-script', T: 'files-from', X: 'exclude-from' },
    shortValue: 'fCbHIKLNTVgXF',
    long: { extract: 'extract', get: 'extract', create: 'create', list: 'list', append: 'append', update: 'update', delete: 'delete', file: 'file', directory: 'directory', 'use-compress-program': 'use-compress-program', 'to-command': 'to-command', 'checkpoint-action': 'checkpoint-action', 'info-script': 'info-script', 'new-volume-script': 'info-script', 'rsh-command': 'rsh-command', 'files-from': 'files-from', 'exclude-from': 'exclude-from' },
    longValue: ['file', 'directory', 'use-compress-program', 'to-command', 'checkpoint-action', 'info-script', 'rsh-command', 'files-from', 'exclude-from', 'exclude', 'transform', 'owner', 'group', 'mode', 'format', 'newer', 'after-date', 'strip-components', 'label', 'blocking-factor', 'record-size'],
  });
  out.addFlags(o.display);
  if (o.has('use-compress-program', 'to-command', 'checkpoint-action', 'info-script', 'rsh-command')) out.yellow('tar runs another program');
  const file = o.value('file');
  if (o.has('create', 'append', 'update', 'delete')) {
    if (file && file.value !== '-') checkPath(file, 'write', out, env.paths);
    const credential = o.operands.map((source) => credentialIn(source, env.paths, true)).find((found) => found !== undefined);
    if (file && file.value !== '-' && credential) rememberCredentialCopy(file, credential, env.paths);
    return out.yellow('tar writes an archive');
  }
  if (o.has('extract')) {
    const dir = o.value('directory') ?? literalArg('.');
    const known = resolveWord(dir.word, env.paths).known.map(unescapeGlob);
    if (known.includes('/')) out.red('tar extracts into /: it can overwrite any system file');
    checkPath(dir, 'write', out, env.paths, { otherwise: `tar extracts files into ${shown(dir)} (it may overwrite files)` });
    return;
  }
  out.green('tar only lists an archive');
};

export const zipRule: Rule = (inv, out, env) => {
  const [archive, ...sources] = parseOptions(inv.args, { shortValue: 'bntiDxO' }).operands;
  if (archive) checkPath(archive, 'write', out, env.paths);
  const credential = sources.map((source) => credentialIn(source, env.paths, true)).find((found) => found !== undefined);
  if (archive && archive.value !== '-' && credential) rememberCredentialCopy(archive, credential, env.paths);
  out.yellow('zip writes an archive');
};

export const unzipRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, { shortValue: 'dxP' });
  if (o.has('-l', '-v', '-t', '-Z', '-z') || (o.has('-p') && !o.has('-d'))) return out.green('unzip only lists or tests');
  const dir = o.value('-d') ?? literalArg('.');
  checkPath(dir, 'write', out, env.paths, { otherwise: `unzip extracts files into ${shown(dir)} (it may overwrite files)` });
};

/** zstd's options that write even with `-c` or as zstdcat (`zstdcat -o out f.zst` writes out). */
const ZSTD_OPTIONS = {
  shortValue: 'oD',
  long: { 'output-dir-flat': 'output-dir-flat', 'output-dir-mirror': 'output-dir-mirror', rm: 'rm', train: 'train' },
  longValue: ['output-dir-flat', 'output-dir-mirror', 'patch-from', 'filelist', 'memory', 'dictID', 'maxdict', 'block-size'],
};

export const compressRule: Rule = (inv, out, env) => {
  const zstd = inv.name.includes('zstd');
  const o = parseOptions(inv.args, {
    ...(zstd ? ZSTD_OPTIONS : {}),
    long: { stdout: 'stdout', 'to-stdout': 'stdout', list: 'list', test: 'test', help: 'help', version: 'version', ...(zstd ? ZSTD_OPTIONS.long : {}) },
  });
  if (zstd && o.has('-o', 'output-dir-flat', 'output-dir-mirror', 'train')) {
    for (const target of [...(o.values.get('-o') ?? []), ...(o.values.get('output-dir-flat') ?? []), ...(o.values.get('output-dir-mirror') ?? [])]) checkPath(target, 'write', out, env.paths);
    if (o.has('train') && !o.has('-o')) checkPath(literalArg('dictionary'), 'write', out, env.paths);
    // --rm is ignored only when the output is stdout.
    if (o.has('rm')) for (const source of o.operands) checkPath(source, 'delete', out, env.paths, { otherwise: `${inv.name} --rm deletes ${shown(source)} once written` });
    return out.yellow(`${inv.name} writes ${o.has('train') ? 'a dictionary' : '(de)compressed files'} (-o, --output-dir-*, --train write even with -c)`);
  }
  if (o.has('-c', 'stdout', '-l', 'list', '-t', 'test', 'help', 'version') || /cat$/.test(inv.name)) return out.green(`${inv.name} only prints`);
  out.yellow(`${inv.name} replaces files with (de)compressed versions`);
};

export const sevenZipRule: Rule = (inv, out) => {
  const verb = inv.args[0]?.value;
  if (verb === 'l' || verb === 't' || verb === 'i' || verb === 'h') return out.green(`${inv.name} ${verb} only reads`);
  out.yellow(`${inv.name} writes or extracts archives`);
};
