/**
 * What the effective git config makes a read-only git subcommand run (issue 14). A `git status`
 * the rules call GREEN stays GREEN only when no config key that git acts on for that subcommand
 * names a program; otherwise it is YELLOW, with the key and the file named. The config is read by
 * ../gitConfig.ts, never by running git.
 *
 * Keys, and the subcommands they matter for:
 * - every read subcommand: `core.fsmonitor` (a hook path; `true`/`false` are not programs),
 *   `filter.<driver>.clean|smudge|process` (status and diff run the clean filter on changed files),
 *   `trace2.*target` (writes a file or socket on every command);
 * - paging ones (log, show, diff, grep, blame, branch, tag …, or any with `pager.<cmd>` on):
 *   `core.pager`, `pager.<cmd>` — judged as shell commands, so `less -FRX` stays GREEN; not with
 *   `git -P`/`--no-pager`;
 * - diffing ones (diff, log, show, whatchanged, stash, range-diff): `diff.external`,
 *   `diff.<driver>.command`; `diff.<driver>.textconv` also for blame, annotate, grep, cat-file;
 * - those that refresh and write the index (status, diff, describe, stash): hooks that git runs
 *   then — an executable `post-index-change` in the hooks directory (`core.hooksPath` or
 *   `.git/hooks`), and config-defined hooks (`hook.<name>.command`). No other hook runs for a
 *   read-only subcommand (pre-commit, post-checkout … belong to commands that are YELLOW anyway);
 * - signature checks (verify-commit, verify-tag, and log/show with `--show-signature`, a `%G`
 *   format or `log.showSignature`): `gpg.program`, `gpg.<format>.program`;
 * - the ones that reach a remote (ls-remote, remote show): `core.sshCommand`, `core.gitProxy`,
 *   `core.askPass`, `credential[.<url>].helper`, `remote.<name>.uploadpack`, `remote.<name>.vcs`,
 *   `ext::`/`fd::` URLs (as a remote's url or an `url.<base>.insteadOf` base), `protocol.*.allow`;
 * - `git help` (and `--help`): `man.viewer`, `man.<tool>.cmd|path`, `help.browser`, `web.browser`,
 *   `browser.<tool>.cmd|path`.
 * Not for read-only subcommands: `core.editor`, `sequence.editor` (only commands that edit),
 * `alias.*` (an alias cannot shadow a built-in subcommand), `uploadpack.packObjectsHook` (fetch
 * serving only), `core.alternateRefsCommand` (fetch/push).
 */
import { homedir } from 'node:os';
import { posix } from 'node:path';
import { readGitConfig, type GitConfigEntry } from '../gitConfig';
import { shown, type Arg, type ParsedOptions } from './arguments';
import type { RuleEnv } from './rule';
import type { Verdict } from './verdict';

const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i;

/** Read subcommands that do not page unless `pager.<cmd>` says so. */
const NOT_PAGED: ReadonlySet<string> = new Set([
  'status', 'rev-parse', 'ls-files', 'ls-tree', 'ls-remote', 'cat-file', 'rev-list', 'merge-base', 'count-objects', 'show-ref', 'check-ignore',
  'check-attr', 'check-ref-format', 'check-mailmap', 'name-rev', 'verify-commit', 'verify-tag', 'verify-pack', 'version', 'var', 'column',
  'get-tar-commit-id', 'fsck', 'describe', 'diff-files', 'diff-index', 'diff-tree', 'remote', 'submodule', 'config', 'help', 'for-each-ref',
]);
const DIFFING: ReadonlySet<string> = new Set(['diff', 'log', 'show', 'whatchanged', 'stash', 'range-diff']);
const TEXTCONV: ReadonlySet<string> = new Set([...DIFFING, 'blame', 'annotate', 'grep', 'cat-file']);
const INDEX_WRITERS: ReadonlySet<string> = new Set(['status', 'diff', 'describe', 'stash']);
const SIGNATURES: ReadonlySet<string> = new Set(['verify-commit', 'verify-tag']);
const SHOWS_SIGNATURES: ReadonlySet<string> = new Set(['log', 'show', 'whatchanged']);

/** Where a key was set, for the reason. */
function origin(entry: GitConfigEntry, home: string): string {
  const file = entry.file.startsWith(`${home}/`) ? `~${entry.file.slice(home.length)}` : entry.file;
  if (entry.scope === 'repository') return `the repository's config (${file})`;
  if (entry.scope === 'submodule') return `a submodule's config (${file})`;
  return file;
}

/** The last value of a key (git's "last one wins"), or undefined. */
function last(entries: readonly GitConfigEntry[], key: string): GitConfigEntry | undefined {
  for (let i = entries.length - 1; i >= 0; i--) if ((entries[i] as GitConfigEntry).key.toLowerCase() === key) return entries[i];
  return undefined;
}

const isTrue = (e: GitConfigEntry | undefined): boolean => e !== undefined && (e.value === undefined || /^(true|yes|on|1)$/i.test(e.value));

export interface GitInvocation {
  /** The subcommand. */
  sub: string;
  /** Its arguments. */
  args: readonly Arg[];
  /** git's own options (before the subcommand). */
  global: ParsedOptions;
}

/** Raises `out` for what the effective config makes `git <sub>` run. Call only when the command is otherwise GREEN. */
export function checkGitConfigPrograms(git: GitInvocation, out: Verdict, env: RuleEnv): void {
  const { sub, args, global } = git;
  const remote = env.paths.remoteHost;
  if (remote !== undefined) return out.yellow(`on ${remote}: its git config is not readable from here, and it can name programs git ${sub} runs (core.fsmonitor, a pager, hooks)`);
  env.readsFiles?.();
  if (global.has('exec-path') && global.value('exec-path')) out.yellow(`git --exec-path=${shown(global.value('exec-path') as Arg)} runs git's helper programs from there`);
  if (env.paths.cwdUnknown) return out.yellow('git runs in a directory known only at run time: Tandem cannot read the config there');
  let dirs = env.paths.cwds;
  for (const c of global.values.get('C') ?? []) {
    if (c.value === undefined) return out.yellow(`git -C ${c.text}: a directory known only at run time, whose config Tandem cannot read`);
    dirs = dirs.map((d) => posix.resolve(d, c.value === '~' || c.value?.startsWith('~/') ? `${env.paths.home}${c.value.slice(1)}` : (c.value as string)));
  }
  let gitDir: string | undefined;
  const gd = global.value('git-dir');
  if (gd) {
    if (gd.value === undefined) return out.yellow(`git --git-dir=${gd.text}: a repository known only at run time, whose config Tandem cannot read`);
    gitDir = gd.value;
  }
  const home = env.paths.home;
  const xdgConfigHome = home === homedir() ? process.env.XDG_CONFIG_HOME || undefined : undefined;
  // `git -P`, or GIT_PAGER=cat where it runs (which beats core.pager and pager.<cmd>).
  const noPager = global.has('no-pager') || env.paths.gitPagerOff === true;
  const helpAsked = sub === 'help' || args.some((a) => a.value === '--help');
  const argText = args.map((a) => a.value ?? a.text);
  for (const dir of new Set(dirs)) {
    const config = readGitConfig(dir, { home, xdgConfigHome, gitDir: gitDir === undefined ? undefined : posix.resolve(dir, gitDir) });
    for (const problem of config.problems) out.yellow(`Tandem could not read git's config (${problem}): git would stop on it, but what it names is unknown`);
    const entries = config.entries.filter((e) => !e.trusted && e.scope !== 'submodule');
    const submodules = config.entries.filter((e) => e.scope === 'submodule');
    const named = (entry: GitConfigEntry, what: string): void => {
      out.yellow(`${origin(entry, home)} sets ${entry.key}${entry.value !== undefined && entry.value.length <= 60 ? ` = ${entry.value}` : ''}, ${what}`);
    };
    // Every read subcommand.
    const fsmonitor = last(entries, 'core.fsmonitor');
    if (fsmonitor?.value !== undefined && !BOOLEAN.test(fsmonitor.value.trim())) named(fsmonitor, 'which git runs to ask what changed');
    for (const e of entries) {
      const k = e.key.toLowerCase();
      if (/^filter\..+\.(clean|smudge|process)$/.test(k) && e.value) named(e, 'a filter git runs on file contents');
      if (/^trace2\.\w*target$/.test(k) && e.value && !BOOLEAN.test(e.value)) named(e, 'where git writes trace output');
    }
    // git status and git diff look into submodules, with each one's own config.
    if (INDEX_WRITERS.has(sub)) {
      for (const e of submodules) {
        const k = e.key.toLowerCase();
        if ((k === 'core.fsmonitor' && e.value && !BOOLEAN.test(e.value.trim())) || (/^(filter\..+\.(clean|smudge|process)|hook\..+\.command)$/.test(k) && e.value)) named(e, 'which git runs in the submodule');
      }
    }
    // Pagers.
    if (!noPager && !helpAsked) {
      const own = last(entries, `pager.${sub}`);
      const pages = own ? own.value === undefined || !/^(false|no|off|0)$/i.test(own.value) : !NOT_PAGED.has(sub);
      if (pages) {
        const pager = own?.value !== undefined && !BOOLEAN.test(own.value) ? own : last(entries, 'core.pager');
        if (pager?.value !== undefined && pager.value.trim() !== '') {
          const level = env.nestedSource(pager.value, `git's pager (${pager.key} in ${origin(pager, home)})`, { fromConfig: true });
          out.raise(level, `${origin(pager, home)} sets ${pager.key} = ${pager.value}, which git runs as its pager`);
        }
      }
      if (sub === 'grep' && args.some((a) => /^(-O|--open-files-in-pager)/.test(a.value ?? a.text))) out.yellow('git grep -O opens the files found in a pager or editor');
    }
    if (sub === 'grep' && args.some((a) => /^(-O|--open-files-in-pager)/.test(a.value ?? a.text)) && noPager) out.yellow('git grep -O opens the files found in a pager or editor');
    // Diffs.
    if (DIFFING.has(sub)) {
      const external = last(entries, 'diff.external');
      if (external?.value) named(external, 'which git runs to show diffs');
    }
    for (const e of entries) {
      const k = e.key.toLowerCase();
      if (DIFFING.has(sub) && /^diff\..+\.command$/.test(k) && e.value) named(e, 'a diff driver git runs');
      if (TEXTCONV.has(sub) && /^diff\..+\.textconv$/.test(k) && e.value) named(e, 'a program git runs to turn files into text');
    }
    // Hooks run when the index is refreshed and written.
    if (INDEX_WRITERS.has(sub)) {
      for (const hook of config.hooks) out.yellow(`the repository has an executable ${hook} hook, which git ${sub} runs when it refreshes the index`);
      for (const e of entries) if (/^hook\..+\.command$/.test(e.key.toLowerCase()) && e.value) named(e, 'a hook git runs');
    }
    // Signatures.
    const showsSignatures =
      SIGNATURES.has(sub) ||
      (sub === 'tag' && args.some((a) => a.value === '-v' || a.value === '--verify')) ||
      (SHOWS_SIGNATURES.has(sub) && (argText.some((t) => t === '--show-signature' || /%G/.test(t)) || isTrue(last(entries, 'log.showsignature'))));
    if (showsSignatures) for (const e of entries) if (/^gpg\.(\w+\.)?program$/.test(e.key.toLowerCase()) && e.value) named(e, 'which git runs to check signatures');
    // Remotes.
    if (sub === 'ls-remote' || (sub === 'remote' && argText.includes('show') && !argText.includes('-n'))) {
      for (const e of entries) {
        const k = e.key.toLowerCase();
        const v = e.value ?? '';
        if (/^(core\.sshcommand|core\.gitproxy|core\.askpass|remote\..+\.(uploadpack|vcs))$/.test(k) && v) named(e, 'which git runs to reach the remote');
        else if (/^credential\.(.+\.)?helper$/.test(k) && v) named(e, 'a credential helper git runs');
        else if (/^remote\..+\.(push)?url$/.test(k) && /^(ext|fd)::/i.test(v)) named(e, 'a remote git reaches by running a command');
        else if (/^url\.(ext|fd)::.+\.(push)?insteadof$/i.test(k)) named(e, 'which rewrites URLs into commands git runs');
        else if (/^protocol\.(.+\.)?allow$/.test(k) && /^always$/i.test(v)) named(e, 'which lets git use the ext:: transport (it runs commands)');
      }
    }
    // Help viewers.
    if (helpAsked) {
      for (const e of entries) if (/^(man\.viewer|man\..+\.(cmd|path)|help\.browser|web\.browser|browser\..+\.(cmd|path))$/.test(e.key.toLowerCase()) && e.value) named(e, 'which git help runs to show the manual');
    }
  }
}
