/**
 * Tools that only read — unless an option makes them run a program, write a file, or open a
 * pager, editor or browser (issue 14). Each was checked against its manual; the table in
 * docs/safety.md ("Read-only commands: what was checked") says what was found per tool.
 * What is not an option here (a plain search, a listing) stays GREEN.
 */
import { existsSync } from 'node:fs';
import { posix } from 'node:path';
import { dropPrefix, literalArg, parseOptions, shellText, shown, unknownArg, type Arg, type OptionSpec, type ParsedOptions } from './arguments';
import { checkPath } from './pathChecks';
import type { Rule, RuleEnv } from './rule';
import type { Verdict } from './verdict';

/** A rule from an option spec and a check; GREEN with `only` when the check raises nothing. */
const readerRule =
  (spec: OptionSpec, check: (o: ParsedOptions, out: Verdict, env: RuleEnv, name: string) => void, only = 'only reads'): Rule =>
  (inv, out, env) => {
    const o = parseOptions(inv.args, spec);
    out.addFlags(o.display);
    check(o, out, env, inv.name);
    out.green(`${inv.name} ${only}`);
  };

/** Every value of these options is a file the tool writes. */
function writesValues(o: ParsedOptions, names: readonly string[], out: Verdict, env: RuleEnv): void {
  for (const name of names) for (const file of o.values.get(name) ?? []) checkPath(file, 'write', out, env.paths);
}

/** A pager or program given as a shell command (`bat --pager 'less -R'`): what it runs is judged as a part of its own. */
export function runsCommandText(value: Arg | undefined, via: string, out: Verdict, env: RuleEnv): void {
  if (!value) return out.yellow(`${via} runs a program`);
  if (value.value === undefined) out.yellow(`${via} runs a program known only at run time`);
  const text = shellText(value, env.paths);
  out.raise(env.nestedSource(text, via), `${via} runs ${text}`);
}

// --- search tools ------------------------------------------------------------------------------

export const rgRule = readerRule(
  {
    short: { e: 'regexp', f: 'file', g: 'glob', t: 'type', T: 'type-not', m: 'max-count', A: 'after-context', B: 'before-context', C: 'context', M: 'max-columns', j: 'threads', E: 'encoding', r: 'replace', d: 'max-depth' },
    shortValue: 'efgtTmABCMjErd',
    long: { pre: 'pre', 'pre-glob': 'pre-glob', 'hostname-bin': 'hostname-bin', regexp: 'regexp', file: 'file', glob: 'glob', iglob: 'glob', type: 'type', 'type-not': 'type-not', 'type-add': 'type-add', 'max-count': 'max-count', 'after-context': 'after-context', 'before-context': 'before-context', context: 'context', 'max-columns': 'max-columns', threads: 'threads', encoding: 'encoding', replace: 'replace', 'max-depth': 'max-depth', 'ignore-file': 'ignore-file', 'path-separator': 'path-separator', 'context-separator': 'context-separator', 'field-match-separator': 'field-match-separator', 'field-context-separator': 'field-context-separator', colors: 'colors', sort: 'sort', sortr: 'sortr', 'max-filesize': 'max-filesize', 'dfa-size-limit': 'dfa-size-limit', 'regex-size-limit': 'regex-size-limit', engine: 'engine', 'type-clear': 'type-clear', 'hyperlink-format': 'hyperlink-format', 'search-zip': 'search-zip' },
    longValue: ['pre', 'pre-glob', 'hostname-bin', 'regexp', 'file', 'glob', 'type', 'type-not', 'type-add', 'max-count', 'after-context', 'before-context', 'context', 'max-columns', 'threads', 'encoding', 'replace', 'max-depth', 'ignore-file', 'path-separator', 'context-separator', 'field-match-separator', 'field-context-separator', 'colors', 'sort', 'sortr', 'max-filesize', 'dfa-size-limit', 'regex-size-limit', 'engine', 'type-clear', 'hyperlink-format'],
  },
  (o, out) => {
    for (const pre of o.values.get('pre') ?? []) if (pre.value !== '') out.yellow(`rg --pre runs ${shown(pre)} on every file it searches`);
    if (o.has('pre') && !o.values.get('pre')?.length) out.yellow('rg --pre runs a program on every file it searches');
    if (o.has('hostname-bin')) out.yellow(`rg --hostname-bin runs ${shown(o.value('hostname-bin') ?? literalArg('a program'))}`);
  },
);

export const agRule = readerRule({ shortValue: 'ABCGgmp', long: { pager: 'pager', path: 'path-to-ignore', 'path-to-ignore': 'path-to-ignore' }, longValue: ['pager', 'path-to-ignore', 'depth', 'file-search-regex', 'ignore', 'workers'] }, (o, out, env) => {
  if (o.has('pager')) runsCommandText(o.value('pager'), 'ag --pager', out, env);
});

/** ack reads a project `.ackrc` from the directories above the cwd, which can set `--pager`. */
function projectFileAbove(dirs: readonly string[], names: readonly string[]): string | undefined {
  for (const start of dirs) {
    for (let dir = start; ; dir = posix.dirname(dir)) {
      for (const name of names) {
        const path = posix.join(dir, name);
        try {
          if (existsSync(path)) return path;
        } catch {
          // unreadable: git-like tools would not read it either
        }
      }
      if (dir === '/' || dir === '.') break;
    }
  }
  return undefined;
}

export const ackRule = readerRule({ shortValue: 'ABCmg', long: { pager: 'pager', noenv: 'noenv', 'ackrc': 'ackrc', output: 'output' }, longValue: ['pager', 'ackrc', 'output', 'type', 'ignore-dir', 'ignore-file', 'type-add', 'type-set', 'max-count', 'context'] }, (o, out, env) => {
  if (o.has('pager')) runsCommandText(o.value('pager'), 'ack --pager', out, env);
  if (o.has('ackrc')) out.yellow(`ack --ackrc reads options (a pager it runs) from ${shown(o.value('ackrc') ?? literalArg('a file'))}`);
  if (!o.has('noenv') && env.paths.remoteHost !== undefined) {
    out.yellow(`on ${env.paths.remoteHost}: its .ackrc files are not readable from here, and they can name a pager ack runs (--noenv skips them)`);
  } else if (!o.has('noenv')) {
    env.readsFiles?.();
    const rc = env.paths.cwdUnknown ? undefined : projectFileAbove(env.paths.cwds, ['.ackrc', '_ackrc']);
    if (rc) out.yellow(`ack reads ${rc}, whose options can name a pager it runs (--noenv skips it)`);
  }
});

const FD_PLACEHOLDER = /\{(\/|\/\/|\.|\/\.)?\}/;

export const fdRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, {
    short: { e: 'extension', t: 'type', E: 'exclude', d: 'max-depth', x: 'exec', X: 'exec-batch', j: 'threads', S: 'size', c: 'color', o: 'owner', g: 'glob' },
    shortValue: 'etEdjScoxX',
    long: { exec: 'exec', 'exec-batch': 'exec-batch', extension: 'extension', type: 'type', exclude: 'exclude', 'max-depth': 'max-depth', 'min-depth': 'min-depth', 'exact-depth': 'exact-depth', threads: 'threads', size: 'size', 'changed-within': 'changed-within', 'changed-before': 'changed-before', owner: 'owner', 'ignore-file': 'ignore-file', color: 'color', 'search-path': 'search-path', 'base-directory': 'base-directory', 'path-separator': 'path-separator', 'max-results': 'max-results', 'batch-size': 'batch-size', format: 'format', 'max-buffer-time': 'max-buffer-time', 'one-file-system': 'one-file-system', 'list-details': 'list-details' },
    longValue: ['extension', 'type', 'exclude', 'max-depth', 'min-depth', 'exact-depth', 'threads', 'size', 'changed-within', 'changed-before', 'owner', 'ignore-file', 'color', 'search-path', 'base-directory', 'path-separator', 'max-results', 'batch-size', 'format', 'max-buffer-time'],
  });
  out.addFlags(o.display);
  // `-x CMD ARGS… ;`: the command runs up to a lone `;` (or to the end), and after the `;` another -x/-X may follow.
  const run: string[] = [];
  for (let at = 0; at < inv.args.length; at++) {
    const first = inv.args[at] as Arg;
    if (first.value === undefined || !/^(-[a-zA-Z]*[xX]|--exec|--exec-batch|--exec=.*|--exec-batch=.*)$/.test(first.value)) continue;
    const flag = first.value.replace(/=.*$/, '').replace(/^-[a-zA-Z]*([xX])$/, '-$1');
    const argv: Arg[] = first.value.includes('=') ? [dropPrefix(first, flag.length + 1)] : [];
    for (at++; at < inv.args.length; at++) {
      const a = inv.args[at] as Arg;
      if (a.value === ';') break;
      argv.push(a.value !== undefined && FD_PLACEHOLDER.test(a.value) ? unknownArg(`${a.text} (each file found)`, true) : a);
    }
    if (argv.length === 0) out.yellow(`${inv.name} ${flag} runs a command`);
    else {
      // Without a placeholder, fd appends the path found.
      if (!argv.slice(1).some((a) => a.value === undefined && a.notOption)) argv.push(unknownArg('(each file found)', true));
      env.nestedArgv(argv, `${inv.name} ${flag}`);
    }
    run.push(shown(argv[0] ?? literalArg('a command')));
  }
  if (run.length > 0) return out.green(`${inv.name} runs ${run.join(', ')} on what it finds`);
  if (o.has('exec', 'exec-batch')) return out.yellow(`${inv.name} -x/-X runs a command Tandem could not read`);
  out.green(`${inv.name} only lists files`);
};

// --- pagers and viewers --------------------------------------------------------------------------

/** `less +cmd` / `++cmd`: only moving and searching are allowed (`+G`, `+F`, `+42`, `+/pattern`). */
function harmlessLessCommand(value: string): boolean {
  const cmd = value.replace(/^\+\+?/, '');
  return /^(\d*[gGpP%]?|\d+|[Ff]|[/?][^!|\n]*)$/.test(cmd);
}

export const lessRule: Rule = (inv, out, env) => {
  const o = parseOptions(inv.args, {
    short: { o: 'log-file', O: 'LOG-FILE', k: 'lesskey-file', t: 'tag', T: 'tag-file', p: 'pattern', P: 'prompt', b: 'buffers', h: 'max-back-scroll', j: 'jump-target', x: 'tabs', y: 'max-forw-scroll', z: 'window' },
    shortValue: 'oOktTpPbhjxyz#',
    long: { 'log-file': 'log-file', 'LOG-FILE': 'LOG-FILE', 'lesskey-file': 'lesskey-file', 'lesskey-src': 'lesskey-src', 'lesskey-content': 'lesskey-content', tag: 'tag', 'tag-file': 'tag-file', pattern: 'pattern', prompt: 'prompt', buffers: 'buffers', tabs: 'tabs', window: 'window', shift: 'shift', 'jump-target': 'jump-target' },
    longValue: ['log-file', 'LOG-FILE', 'lesskey-file', 'lesskey-src', 'lesskey-content', 'tag', 'tag-file', 'pattern', 'prompt', 'buffers', 'tabs', 'window', 'shift', 'jump-target'],
  });
  out.addFlags(o.display);
  writesValues(o, ['log-file', 'LOG-FILE'], out, env);
  if (o.has('lesskey-file', 'lesskey-src', 'lesskey-content')) out.yellow(`${inv.name} reads a lesskey file, which can set LESSOPEN (a program it runs) and bind keys to shell commands`);
  for (const a of o.operands) {
    const v = a.value;
    if (v === undefined) {
      if (a.text.startsWith('+') || a.word.parts[0]?.type !== 'literal') out.yellow(`${inv.name} gets an argument known only at run time, which may be a +command`);
      continue;
    }
    if (v.startsWith('+') && !harmlessLessCommand(v)) out.yellow(`${inv.name} ${v} runs less commands at start (\`!\` runs a shell command, \`|\` pipes to one, \`v\` opens an editor)`);
  }
  out.green(`${inv.name} only shows files`);
};

export const batRule = readerRule(
  { short: { l: 'language', H: 'highlight-line', r: 'line-range', m: 'map-syntax', p: 'plain', P: 'no-paging' }, shortValue: 'lHrm', long: { pager: 'pager', paging: 'paging', 'config-file': 'config-file', 'generate-config-file': 'generate-config-file', 'cache-dir': 'cache-dir', 'config-dir': 'config-dir', language: 'language', 'highlight-line': 'highlight-line', 'line-range': 'line-range', 'map-syntax': 'map-syntax', theme: 'theme', style: 'style', 'file-name': 'file-name', diagnostic: 'diagnostic', 'ignored-suffix': 'ignored-suffix', 'diff-context': 'diff-context', 'tabs': 'tabs', wrap: 'wrap', color: 'color', decorations: 'decorations', 'italic-text': 'italic-text', 'terminal-width': 'terminal-width' }, longValue: ['pager', 'paging', 'language', 'highlight-line', 'line-range', 'map-syntax', 'theme', 'style', 'file-name', 'ignored-suffix', 'diff-context', 'tabs', 'wrap', 'color', 'decorations', 'italic-text', 'terminal-width'] },
  (o, out, env, name) => {
    if (o.has('pager') && o.value('paging')?.value !== 'never') runsCommandText(o.value('pager'), `${name} --pager`, out, env);
    if (o.has('generate-config-file')) out.yellow(`${name} --generate-config-file writes its config file`);
    if (o.operands[0]?.value === 'cache' && o.operands.some((a) => a.value === '--build' || a.value === '-b' || a.value === '--clear' || a.value === '-c')) out.yellow(`${name} cache rebuilds or clears its cache`);
  },
);

export const manRule = readerRule(
  { short: { P: 'pager', H: 'html', C: 'config-file', X: 'gxditview', M: 'manpath', S: 'sections', s: 'sections', L: 'locale', m: 'systems', p: 'preprocessor', E: 'encoding', T: 'troff-device', R: 'recode', e: 'extension', u: 'update', c: 'catman' }, shortValue: 'PCMSsLmpERe', shortOptionalValue: 'HXT', long: { pager: 'pager', html: 'html', 'config-file': 'config-file', gxditview: 'gxditview', manpath: 'manpath', sections: 'sections', locale: 'locale', systems: 'systems', preprocessor: 'preprocessor', encoding: 'encoding', 'troff-device': 'troff-device', recode: 'recode', extension: 'extension', 'prompt': 'prompt', update: 'update', catman: 'catman' }, longValue: ['pager', 'config-file', 'manpath', 'sections', 'locale', 'systems', 'preprocessor', 'encoding', 'recode', 'extension', 'prompt'] },
  (o, out, env) => {
    if (o.has('pager')) runsCommandText(o.value('pager'), 'man --pager', out, env);
    if (o.has('html')) out.yellow(`man --html opens a web browser${o.value('html') ? ` (${shown(o.value('html') as Arg)})` : ''}`);
    if (o.has('gxditview')) out.yellow('man -X opens an X viewer');
    if (o.has('config-file')) out.yellow('man -C reads another man_db.conf, which names the programs man runs');
    if (o.has('update')) out.yellow('man -u rebuilds its database caches of installed pages');
    if (o.has('catman')) out.yellow('man -c is catman\'s mode for writing formatted cat pages');
  },
);

export const infoRule = readerRule(
  { short: { o: 'output', d: 'directory', f: 'file', n: 'node' }, shortValue: 'odfn', long: { output: 'output', dribble: 'dribble', restore: 'restore', 'init-file': 'init-file', directory: 'directory', file: 'file', node: 'node', 'index-search': 'index-search', 'vi-keys': 'vi-keys' }, longValue: ['output', 'dribble', 'restore', 'init-file', 'directory', 'file', 'node', 'index-search'] },
  (o, out, env) => {
    writesValues(o, ['output', 'dribble'], out, env);
    if (o.has('restore')) out.yellow(`info --restore replays keystrokes from ${shown(o.value('restore') ?? literalArg('a file'))} (print-node pipes a node to lpr or INFO_PRINT_COMMAND)`);
  },
);

export const treeRule = readerRule(
  { short: { o: 'output', L: 'level', P: 'pattern', I: 'exclude', H: 'html-base', T: 'title' }, shortValue: 'oLPIHT', long: { output: 'output', fromfile: 'fromfile', charset: 'charset', filelimit: 'filelimit', timefmt: 'timefmt', sort: 'sort', gitfile: 'gitfile', infofile: 'infofile', hintro: 'hintro', houtro: 'houtro' }, longValue: ['output', 'charset', 'filelimit', 'timefmt', 'sort', 'gitfile', 'infofile', 'hintro', 'houtro'] },
  (o, out, env) => {
    writesValues(o, ['output'], out, env);
    if (o.has('-R')) out.yellow('tree -R writes 00Tree.html into every directory it lists (with -L, HTML or not)');
  },
);

export const shufRule = readerRule({ short: { o: 'output', n: 'head-count', i: 'input-range' }, shortValue: 'oni', long: { output: 'output', 'head-count': 'head-count', 'input-range': 'input-range', 'random-source': 'random-source', 'echo': 'echo', repeat: 'repeat', 'zero-terminated': 'zero-terminated' }, longValue: ['output', 'head-count', 'input-range', 'random-source'] }, (o, out, env) => writesValues(o, ['output'], out, env));

export const sdiffRule = readerRule({ short: { o: 'output', w: 'width' }, shortValue: 'ow', long: { output: 'output', 'diff-program': 'diff-program', width: 'width' }, longValue: ['output', 'diff-program', 'width', 'ignore-matching-lines', 'tabsize'] }, (o, out, env) => {
  writesValues(o, ['output'], out, env);
  if (o.has('output')) out.yellow('sdiff -o merges interactively into a file (and can open an editor)');
  if (o.has('diff-program')) out.yellow(`sdiff --diff-program runs ${shown(o.value('diff-program') ?? literalArg('a program'))}`);
});

const CLOC_WRITES = ['report-file', 'out', 'sql', 'write-lang-def', 'write-lang-def-incl-dup', 'ignored', 'counted', 'categorized', 'found', 'unique', 'diff-alignment', 'sdir'];
const CLOC_RUNS_GIT = ['vcs', 'git', 'diff', 'count-and-diff', 'git-diff-rel', 'git-diff-all'];
export const clocRule = readerRule({ long: Object.fromEntries([...CLOC_WRITES, ...CLOC_RUNS_GIT, 'extract-with', 'config', 'strip-comments', 'xsl', 'list-file', 'exclude-list-file', 'read-lang-def', 'force-lang-def', 'script-lang', 'force-lang', 'exclude-dir', 'exclude-lang', 'include-lang', 'exclude-ext', 'include-ext', 'match-f', 'not-match-f', 'match-d', 'not-match-d', 'timeout', 'csv-delimiter'].map((k) => [k, k])), longValue: [...CLOC_WRITES, 'extract-with', 'vcs', 'config', 'list-file', 'exclude-list-file', 'read-lang-def', 'force-lang-def', 'script-lang', 'force-lang', 'exclude-dir', 'exclude-lang', 'include-lang', 'exclude-ext', 'include-ext', 'match-f', 'not-match-f', 'match-d', 'not-match-d', 'timeout', 'csv-delimiter'] }, (o, out, env) => {
  writesValues(o, CLOC_WRITES, out, env);
  if (o.has('extract-with')) out.yellow(`cloc --extract-with runs ${shown(o.value('extract-with') as Arg)}`);
  if (o.has(...CLOC_RUNS_GIT)) out.yellow('cloc --vcs/--git/--diff runs git (or the program named) to list files');
  if (o.has('config')) out.yellow('cloc --config reads options (programs it runs, files it writes) from a file');
  if (o.has('strip-comments')) out.yellow('cloc --strip-comments writes a stripped copy of every file it counts');
  if (o.has('xsl') && !o.value('xsl')) checkPath(literalArg('cloc.xsl'), 'write', out, env.paths);
});

export const fileRule = readerRule({ short: { m: 'magic-file', f: 'files-from', F: 'separator', P: 'parameter', C: 'compile' }, shortValue: 'mfFP', long: { 'magic-file': 'magic-file', 'files-from': 'files-from', separator: 'separator', parameter: 'parameter', compile: 'compile' }, longValue: ['magic-file', 'files-from', 'separator', 'parameter'] }, (o, out) => {
  if (o.has('compile')) out.yellow('file -C writes a compiled magic file (.mgc)');
});

export const atopRule = readerRule({ shortValue: 'wrPJ' }, (o, out, env) => writesValues(o, ['-w'], out, env));

export const ssRule = readerRule({ short: { K: 'kill', D: 'diag', F: 'filter', A: 'query', f: 'family', N: 'net' }, shortValue: 'DFAfN', long: { kill: 'kill', diag: 'diag', filter: 'filter', query: 'query', family: 'family', net: 'net' }, longValue: ['diag', 'filter', 'query', 'family', 'net'] }, (o, out, env) => {
  if (o.has('kill')) out.yellow('ss -K closes the sockets it matches');
  writesValues(o, ['diag'], out, env);
});

export const nmRule = readerRule({ long: { plugin: 'plugin' }, longValue: ['plugin', 'target', 'format', 'radix'] }, (o, out) => {
  if (o.has('plugin')) out.yellow('nm --plugin loads a shared library (code) into nm');
  const optionFile = o.operands.find((a) => (a.value ?? a.text).startsWith('@'));
  if (optionFile) out.yellow(`nm ${shown(optionFile)} reads options (--plugin among them) from a file`);
});

export const ezaRule = readerRule({ long: { 'write-theme': 'write-theme' } }, (o, out, env) => {
  if (!o.has('write-theme')) return;
  const dir = o.value('write-theme');
  checkPath(dir?.value === undefined && dir ? dir : literalArg(posix.join(dir?.value ?? '.', 'theme.yml')), 'write', out, env.paths);
});

const PROCS_VALUES = ['watch-interval', 'insert', 'only', 'sorta', 'sortd', 'color', 'theme', 'pager', 'interval', 'use-config', 'load-config', 'gen-completion', 'gen-completion-out', 'procfs'];
export const procsRule = readerRule({ shortValue: 'Wicp', long: Object.fromEntries(PROCS_VALUES.map((k) => [k, k])), longValue: PROCS_VALUES }, (o, out) => {
  if (o.has('gen-completion')) out.yellow('procs --gen-completion writes a completion file into the current directory');
  if (o.has('load-config')) out.yellow(`procs --load-config reads ${shown(o.value('load-config') ?? literalArg('a config'))}, which names the pager it runs`);
});

export const lastlogRule = readerRule({ short: { C: 'clear', S: 'set', b: 'before', t: 'time', u: 'user', R: 'root' }, shortValue: 'btuR', long: { clear: 'clear', set: 'set', before: 'before', time: 'time', user: 'user', root: 'root' }, longValue: ['before', 'time', 'user', 'root'] }, (o, out) => {
  if (o.has('clear', 'set')) out.yellow('lastlog -C/-S rewrites records in /var/log/lastlog');
});

export const lspciRule = readerRule({ shortValue: 'sdipAOF' }, (o, out) => {
  if (o.has('-q', '-Q')) out.yellow('lspci -q/-Q asks a DNS server for device ids and writes the answers to ~/.pciids-cache');
});

export const sensorsRule = readerRule({ short: { s: 'set', c: 'config-file' }, shortValue: 'c', long: { set: 'set', 'config-file': 'config-file' }, longValue: ['config-file'] }, (o, out) => {
  if (o.has('set')) out.yellow('sensors -s writes limits to the sensor chips');
});

const SYSTEMD_ANALYZE_READ = /^(|time|blame|critical-chain|dump|plot|dot|unit-paths|exit-status|capability|condition|syscall-filter|filesystems|calendar|timestamp|timespan|security|inspect-elf|fdstore|image-policy|has-tpm2|pcrs|srk|architectures|smbios11|cat-config|compare-versions|unit-files|verify|malloc|log-level|log-target|service-watchdogs)$/;
export const systemdAnalyzeRule: Rule = (inv, out) => {
  const valued = ['root', 'image', 'offline', 'threshold', 'security-policy', 'json', 'profile', 'iterations', 'base-time', 'unit', 'host', 'machine', 'from-pattern', 'to-pattern', 'fuzz', 'scale-svg', 'image-policy', 'recursive-errors'];
  const o = parseOptions(inv.args, { short: { H: 'host', M: 'machine' }, shortValue: 'HM', long: Object.fromEntries([...valued, 'generators', 'man'].map((k) => [k, k])), longValue: valued });
  out.addFlags(o.display);
  if (o.has('host')) return out.yellow('systemd-analyze -H runs the operation on another host over ssh');
  if (o.has('generators')) out.yellow('systemd-analyze --generators runs the unit generators');
  const [verb, ...rest] = o.operands;
  const v = verb?.value ?? (verb ? undefined : '');
  if (v === undefined) return out.yellow('systemd-analyze with a verb known only at run time');
  if (/^(log-level|log-target|service-watchdogs)$/.test(v) && rest.length > 0) return out.yellow(`systemd-analyze ${v} changes the service manager`);
  if (!SYSTEMD_ANALYZE_READ.test(v)) return out.yellow(`systemd-analyze ${v} is not a verb Tandem knows to be read-only (unit-shell starts a shell)`);
  out.green(`systemd-analyze ${v || ''} only reads`.replace('  ', ' '));
};

export const tldrRule = readerRule({ short: { u: 'update', c: 'clear-cache' }, shortValue: 'pLf', long: { update: 'update', 'update-cache': 'update', 'clear-cache': 'clear-cache', 'seed-config': 'seed-config', 'auto-update-interval': 'auto-update-interval' }, longValue: ['auto-update-interval', 'platform', 'language', 'render', 'color'] }, (o, out) => {
  if (o.has('update', 'clear-cache', 'auto-update-interval')) out.yellow('tldr --update downloads pages into its cache (-c clears it)');
  if (o.has('seed-config')) out.yellow('tldr --seed-config writes its config file');
  // The Python client's subcommands: update runs git pull in the pages repository, init and reindex write its config and index.
  const verb = o.operands[0]?.value;
  if (o.operands.length === 1 && (verb === 'update' || verb === 'init' || verb === 'reindex')) out.yellow(`tldr ${verb} (the Python client) writes its pages, config or index`);
});

/** `split`, `csplit`: write pieces named after a prefix. */
export const splitRule: Rule = (inv, out, env) => {
  const csplit = inv.name === 'csplit';
  const o = parseOptions(inv.args, csplit ? { short: { f: 'prefix', b: 'suffix-format', n: 'digits' }, shortValue: 'fbn', long: { prefix: 'prefix', 'suffix-format': 'suffix-format', digits: 'digits' }, longValue: ['prefix', 'suffix-format', 'digits'] } : { shortValue: 'abClnt', longValue: ['suffix-length', 'additional-suffix', 'bytes', 'line-bytes', 'lines', 'number', 'separator', 'filter', 'numeric-suffixes', 'hex-suffixes'], long: { filter: 'filter' } });
  out.addFlags(o.display);
  const prefix = csplit ? (o.value('prefix') ?? literalArg('xx')) : (o.operands[1] ?? literalArg('x'));
  checkPath(prefix.value === undefined ? prefix : literalArg(`${prefix.value}aa`), 'write', out, env.paths);
  checkPath(prefix, 'write', out, env.paths);
  if (o.has('filter')) runsCommandText(o.value('filter'), 'split --filter', out, env);
  out.yellow(`${inv.name} writes files named ${shown(prefix)}…`);
};

export const READER_RULES: Readonly<Record<string, Rule>> = {
  rg: rgRule,
  ag: agRule,
  ack: ackRule,
  fd: fdRule,
  fdfind: fdRule,
  less: lessRule,
  zless: lessRule,
  bat: batRule,
  batcat: batRule,
  man: manRule,
  info: infoRule,
  tree: treeRule,
  shuf: shufRule,
  sdiff: sdiffRule,
  cloc: clocRule,
  file: fileRule,
  atop: atopRule,
  ss: ssRule,
  nm: nmRule,
  lastlog: lastlogRule,
  eza: ezaRule,
  procs: procsRule,
  lspci: lspciRule,
  sensors: sensorsRule,
  'systemd-analyze': systemdAnalyzeRule,
  tldr: tldrRule,
  split: splitRule,
  csplit: splitRule,
};
