/** Rules for git and its subcommands. */
import { dropPrefix, parseOptions, shellText, shown, type Arg, type OptionSpec } from './arguments';
import { checkPath } from './pathChecks';
import { checkGitConfigPrograms } from './gitRepositoryConfig';
import type { Rule, RuleEnv } from './rule';
import type { Verdict } from './verdict';

/** Branches whose history other people build on: force-pushing or deleting them is RED. */
const PROTECTED_BRANCHES = /^(main|master|trunk|production|prod|release)$/;

const GIT_READ: ReadonlySet<string> = new Set([
  'status', 'log', 'diff', 'show', 'rev-parse', 'blame', 'annotate', 'describe', 'ls-files', 'ls-tree', 'ls-remote', 'grep', 'shortlog',
  'cat-file', 'rev-list', 'whatchanged', 'name-rev', 'merge-base', 'count-objects', 'for-each-ref', 'show-ref', 'show-branch', 'help',
  'version', 'var', 'check-ignore', 'check-attr', 'check-ref-format', 'check-mailmap', 'cherry', 'range-diff', 'diff-tree', 'diff-files',
  'diff-index', 'verify-commit', 'verify-tag', 'verify-pack', 'fsck', 'get-tar-commit-id', 'column',
]);

/** What git subcommands that change things do, for the reason. */
const GIT_CHANGE: Readonly<Record<string, string>> = {
  commit: 'records a commit', add: 'stages changes', fetch: 'updates remote-tracking branches', pull: 'merges remote changes into the working tree',
  merge: 'merges branches', rebase: 'rewrites commits onto another base', 'cherry-pick': 'applies commits', revert: 'records reverting commits',
  am: 'applies mailed patches', apply: 'changes files from a patch', mv: 'moves files', init: 'creates a repository', clone: 'copies a repository',
  switch: 'switches branches', gc: 'packs the repository (and prunes unreachable objects)', prune: 'deletes unreachable objects',
  'filter-branch': 'rewrites the whole history', 'filter-repo': 'rewrites the whole history', 'update-ref': 'moves or deletes refs directly',
  'update-index': 'changes the index directly', 'symbolic-ref': 'changes HEAD directly', replace: 'replaces objects', bisect: 'moves HEAD to bisect',
  sparse: 'changes the checkout', 'sparse-checkout': 'changes the checkout', 'read-tree': 'changes the index', 'checkout-index': 'writes files from the index',
  'commit-tree': 'creates commits', 'hash-object': 'writes objects', 'mktag': 'writes a tag', lfs: 'manages large files', maintenance: 'runs maintenance tasks',
  difftool: 'runs a diff tool', mergetool: 'runs a merge tool', 'format-patch': 'writes patch files', archive: 'writes an archive', bundle: 'writes a bundle',
  'send-email': 'sends email', 'request-pull': 'prints a pull request', 'repack': 'repacks objects', 'pack-refs': 'packs refs', notes: 'changes notes',
};

const GIT_GLOBAL_SPEC: OptionSpec = {
  short: { C: 'C', c: 'c', p: 'paginate', P: 'no-pager' },
  shortValue: 'Cc',
  long: { 'git-dir': 'git-dir', 'work-tree': 'work-tree', namespace: 'namespace', 'no-pager': 'no-pager', paginate: 'paginate', bare: 'bare', 'exec-path': 'exec-path', 'config-env': 'config-env', 'no-replace-objects': 'no-replace-objects', 'literal-pathspecs': 'literal-pathspecs', 'no-optional-locks': 'no-optional-locks' },
  longValue: ['git-dir', 'work-tree', 'namespace', 'config-env'],
  stopAtOperand: true,
};

type GitRule = (args: Arg[], out: Verdict, env: RuleEnv) => void;

/** A push refspec: `+main`, `HEAD:main`, `:main` (delete), `refs/heads/x`. */
function refspec(arg: Arg): { dst?: string; forced: boolean; deleted: boolean; text: string } {
  const v = arg.value;
  if (v === undefined) return { forced: false, deleted: false, text: arg.text };
  const forced = v.startsWith('+');
  const spec = forced ? v.slice(1) : v;
  const colon = spec.indexOf(':');
  const src = colon >= 0 ? spec.slice(0, colon) : spec;
  let dst = (colon >= 0 ? spec.slice(colon + 1) : spec).replace(/^refs\/heads\//, '');
  if (dst === 'HEAD' || dst === '@') dst = '';
  return { dst: dst === '' ? undefined : dst, forced, deleted: colon >= 0 && src === '', text: v };
}

const gitPush: GitRule = (args, out) => {
  const o = parseOptions(args, {
    short: { f: 'force', d: 'delete', u: 'set-upstream', n: 'dry-run', q: 'quiet', v: 'verbose', o: 'push-option' },
    shortValue: 'o',
    long: { force: 'force', 'force-with-lease': 'force-with-lease', 'force-if-includes': 'force-if-includes', mirror: 'mirror', all: 'all', branches: 'all', tags: 'tags', delete: 'delete', 'set-upstream': 'set-upstream', prune: 'prune', 'dry-run': 'dry-run', 'no-verify': 'no-verify', repo: 'repo', 'push-option': 'push-option', 'receive-pack': 'receive-pack', exec: 'receive-pack', atomic: 'atomic', 'follow-tags': 'follow-tags', quiet: 'quiet', verbose: 'verbose' },
    longValue: ['repo', 'push-option', 'receive-pack'],
  });
  out.addFlags(o.display);
  if (o.has('dry-run')) return out.green('git push --dry-run only checks what would be pushed');
  const force = o.has('force', 'force-with-lease') || o.maybeAnyOption;
  const how = o.has('force') ? '--force' : o.has('force-with-lease') ? '--force-with-lease' : 'with options known only at run time';
  const refspecs = o.operands.slice(o.has('repo') ? 0 : 1).map(refspec);
  if (o.has('mirror')) out.red('git push --mirror overwrites and deletes every branch on the remote');
  if (force && o.has('all')) out.red(`git push ${how} --all rewrites every branch on the remote, main included`);
  for (const r of refspecs) {
    const forced = force || r.forced;
    const deleted = o.has('delete') || r.deleted;
    const shownHow = r.forced ? `+${r.dst ?? ''}` : how;
    if (r.dst !== undefined && PROTECTED_BRANCHES.test(r.dst)) {
      if (deleted) out.red(`git push deletes the remote ${r.dst} branch`);
      else if (forced) out.red(`git push ${shownHow} to ${r.dst} rewrites its shared history`);
    } else if (forced && !deleted && r.dst === undefined) out.red(`git push ${shownHow} to ${r.text}: the branch is not named, and it may be main`);
    else if (forced && !deleted) out.yellow(`git push ${shownHow} rewrites the history of ${r.dst} on the remote`);
    else if (deleted) out.yellow(`git push deletes the remote branch ${r.dst ?? r.text}`);
  }
  if (force && refspecs.length === 0 && !o.has('all', 'mirror')) out.red(`git push ${how} without naming a branch: the current branch is not known and may be main`);
  if (o.has('prune')) out.yellow('git push --prune deletes remote branches that do not exist locally');
  out.yellow('git push publishes commits to a remote');
};

const gitBranch: GitRule = (args, out) => {
  const o = parseOptions(args, {
    short: { d: 'delete', D: 'force-delete', m: 'move', M: 'move', c: 'copy', C: 'copy', f: 'force', u: 'set-upstream-to', t: 'track', l: 'list', a: 'all', r: 'remotes', v: 'verbose', q: 'quiet' },
    shortValue: 'u',
    long: { delete: 'delete', move: 'move', copy: 'copy', force: 'force', 'set-upstream-to': 'set-upstream-to', 'unset-upstream': 'unset-upstream', 'edit-description': 'edit-description', track: 'track', 'no-track': 'track', list: 'list', all: 'all', remotes: 'remotes', verbose: 'verbose', 'show-current': 'show-current', contains: 'contains', 'no-contains': 'contains', merged: 'merged', 'no-merged': 'merged', 'points-at': 'points-at', sort: 'sort', format: 'format', color: 'color', column: 'column', 'ignore-case': 'ignore-case' },
    longValue: ['set-upstream-to', 'sort', 'format', 'points-at', 'contains', 'merged'],
  });
  if (o.has('force-delete') || (o.has('delete') && o.has('force'))) return out.yellow('git branch -D deletes a branch even if it is not merged');
  if (o.has('delete')) return out.yellow('git branch -d deletes a branch');
  if (o.has('move', 'copy', 'set-upstream-to', 'unset-upstream', 'edit-description', 'track', 'force')) return out.yellow('git branch renames, copies or reconfigures a branch');
  if (o.operands.length === 0 || o.has('list', 'contains', 'merged', 'points-at', 'show-current')) return out.green('git branch only lists branches');
  out.yellow('git branch creates a branch');
};

const gitTag: GitRule = (args, out) => {
  const o = parseOptions(args, { short: { d: 'delete', l: 'list', v: 'verify', a: 'annotate', s: 'sign', m: 'message', F: 'file', f: 'force', u: 'local-user', n: 'n' }, shortValue: 'mFu', shortOptionalValue: 'n', long: { delete: 'delete', list: 'list', verify: 'verify', annotate: 'annotate', sign: 'sign', message: 'message', file: 'file', force: 'force', 'local-user': 'local-user', contains: 'contains', 'points-at': 'points-at', merged: 'merged', sort: 'sort', format: 'format' }, longValue: ['message', 'file', 'local-user', 'contains', 'points-at', 'merged', 'sort', 'format'] });
  if (o.has('delete')) return out.yellow('git tag -d deletes a tag');
  if (o.has('annotate', 'sign', 'message', 'file', 'force', 'local-user')) return out.yellow('git tag creates a tag');
  if (o.operands.length === 0 || o.has('list', 'verify', 'contains', 'points-at', 'merged')) return out.green('git tag only lists tags');
  out.yellow('git tag creates a tag');
};

/** `git remote`, `git stash list` …: GREEN for the listed verbs, YELLOW with `what` otherwise. */
const gitVerbs =
  (sub: string, read: RegExp, what: string, destructive: Record<string, string> = {}): GitRule =>
  (args, out) => {
    const verb = args.find((a) => !(a.value ?? '-').startsWith('-'))?.value ?? '';
    if (Object.hasOwn(destructive, verb)) return out.yellow(`git ${sub} ${verb} ${destructive[verb] as string}`);
    if (read.test(verb)) return out.green(`git ${sub}${verb ? ` ${verb}` : ''} only reads`);
    out.yellow(`git ${sub} ${verb ? `${verb} ` : ''}${what}`);
  };

const gitConfig: GitRule = (args, out, env) => {
  const o = parseOptions(args, { shortValue: 'f', long: { file: 'file', blob: 'blob', type: 'type', default: 'default' }, longValue: ['file', 'blob', 'type', 'default'] });
  const [first, second] = o.operands.map((a) => a.value);
  const key = first === 'set' ? second : first;
  if (key && /(pager|editor|command|sshcommand|askpass|external|fsmonitor|hookspath|textconv|helper|program|^alias\.|\.cmd$|^filter\.|^include)/i.test(key) && o.operands.length >= 2) {
    const value = o.operands[o.operands.length - 1];
    if (value && /^alias\./i.test(key) && value.value?.startsWith('!')) env.nestedSource(value.value.slice(1), `git alias ${key}`);
    else if (value?.value !== undefined && /(pager|editor|sshcommand|askpass|\.cmd$|command$)/i.test(key)) env.nestedSource(value.value, `git ${key}`);
    out.yellow(`git config ${key} makes git run a program`);
  }
  const modifying = o.has('--add', '--unset', '--unset-all', '--replace-all', '--rename-section', '--remove-section', '-e', '--edit') || /^(set|unset|rename-section|remove-section|edit)$/.test(first ?? '');
  const reading = o.has('--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l', '--get-color', '--get-colorbool') || /^(get|list)$/.test(first ?? '');
  if (!modifying && (reading || o.operands.length <= 1)) return out.green('git config only reads settings');
  out.yellow('git config changes settings');
};

const gitClean: GitRule = (args, out) => {
  const o = parseOptions(args, { short: { n: 'dry-run', f: 'force', d: 'd', x: 'x', X: 'X', i: 'interactive', q: 'quiet', e: 'exclude' }, shortValue: 'e', long: { 'dry-run': 'dry-run', force: 'force', interactive: 'interactive', quiet: 'quiet', exclude: 'exclude' }, longValue: ['exclude'] });
  if (o.has('dry-run') && !o.has('interactive')) return out.green('git clean -n only lists what it would delete');
  const extra = [o.has('d') ? 'and directories' : '', o.has('x') ? 'including ignored ones (.env files, build output)' : o.has('X') ? 'only ignored ones' : ''].filter(Boolean).join(', ');
  out.yellow(`git clean deletes untracked files${extra ? ` ${extra}` : ''}; they cannot be recovered`);
};

const gitReset: GitRule = (args, out) => {
  const o = parseOptions(args, { long: { hard: 'hard', soft: 'soft', mixed: 'mixed', merge: 'merge', keep: 'keep' } });
  if (o.has('hard')) return out.yellow('git reset --hard discards uncommitted changes');
  out.yellow('git reset moves the branch or unstages changes');
};

const gitCheckout: GitRule = (args, out) => {
  const dash = args.findIndex((a) => a.value === '--');
  const o = parseOptions(dash >= 0 ? args.slice(0, dash) : args, { short: { b: 'b', B: 'B', f: 'force', p: 'patch', q: 'quiet', t: 'track' }, shortValue: 'bB', long: { force: 'force', patch: 'patch', quiet: 'quiet', track: 'track', orphan: 'orphan', detach: 'detach', ours: 'ours', theirs: 'theirs', 'no-track': 'track' }, longValue: ['orphan'] });
  const paths = dash >= 0 ? args.slice(dash + 1) : o.operands.filter((a) => a.value === '.' || a.value === ':/' || (a.value ?? '').includes('/') || (a.value ?? '').includes('*'));
  if (o.has('force')) return out.yellow('git checkout -f discards local changes');
  if (paths.length > 0) return out.yellow(`git checkout -- ${paths.map(shown).join(' ')} discards local changes to those files`);
  out.yellow(o.has('b', 'B', 'orphan') ? 'git checkout creates and switches to a branch' : 'git checkout switches branches or restores files');
};

const gitRestore: GitRule = (args, out) => {
  const o = parseOptions(args, { short: { s: 'source', S: 'staged', W: 'worktree', p: 'patch' }, shortValue: 's', long: { source: 'source', staged: 'staged', worktree: 'worktree', patch: 'patch' }, longValue: ['source'] });
  if (o.has('staged') && !o.has('worktree')) return out.yellow('git restore --staged unstages changes');
  out.yellow(`git restore discards local changes to ${o.operands.map(shown).join(' ') || 'files'}`);
};

const gitRm: GitRule = (args, out) => {
  const o = parseOptions(args, { short: { r: 'recursive', f: 'force', n: 'dry-run' }, long: { cached: 'cached', 'dry-run': 'dry-run', force: 'force' } });
  if (o.has('dry-run')) return out.green('git rm -n only lists what it would remove');
  out.yellow(o.has('cached') ? 'git rm --cached stops tracking files' : 'git rm deletes files from the working tree and the index');
};

const gitLogLike =
  (sub: string): GitRule =>
  (args, out, env) => {
    for (const a of args) if (a.value?.startsWith('--output=')) checkPath(dropPrefix(a, 9), 'write', out, env.paths);
    const i = args.findIndex((a) => a.value === '--output');
    const file = i >= 0 ? args[i + 1] : undefined;
    if (file) checkPath(file, 'write', out, env.paths);
    out.green(`git ${sub} only reads`);
  };

const gitSubmodule: GitRule = (args, out, env) => {
  const verb = args.find((a) => !(a.value ?? '-').startsWith('-'));
  if (verb?.value === 'foreach') {
    const rest = args.slice(args.indexOf(verb) + 1).filter((a) => !(a.value ?? '').startsWith('--'));
    env.nestedSource(rest.map((a) => shellText(a, env.paths)).join(' '), 'git submodule foreach');
    return out.yellow('git submodule foreach runs a command in every submodule');
  }
  if (!verb || /^(status|summary)$/.test(verb.value ?? '')) return out.green('git submodule only reads');
  out.yellow(`git submodule ${verb.value ?? ''} changes submodules`);
};

const GIT_SUBCOMMANDS: Readonly<Record<string, GitRule>> = {
  push: gitPush,
  branch: gitBranch,
  tag: gitTag,
  config: gitConfig,
  clean: gitClean,
  reset: gitReset,
  checkout: gitCheckout,
  restore: gitRestore,
  rm: gitRm,
  log: gitLogLike('log'),
  diff: gitLogLike('diff'),
  show: gitLogLike('show'),
  submodule: gitSubmodule,
  remote: gitVerbs('remote', /^(|show|get-url)$/, 'changes remotes'),
  stash: gitVerbs('stash', /^(list|show)$/, 'stashes or applies changes', { drop: 'deletes stashed changes', clear: 'deletes all stashed changes' }),
  reflog: gitVerbs('reflog', /^(|show|exists)$/, 'changes the reflog', { expire: 'deletes reflog entries (the undo history)', delete: 'deletes reflog entries (the undo history)' }),
  worktree: gitVerbs('worktree', /^list$/, 'changes worktrees', { remove: 'deletes a worktree' }),
  notes: gitVerbs('notes', /^(|list|show)$/, 'changes notes'),
  bisect: gitVerbs('bisect', /^(log|view|visualize)$/, 'moves HEAD to bisect'),
  'sparse-checkout': gitVerbs('sparse-checkout', /^list$/, 'changes the checkout'),
  lfs: gitVerbs('lfs', /^(ls-files|status|env|version|track|logs)$/, 'manages large files'),
};

export const gitRule: Rule = (inv, out, env) => {
  const g = parseOptions(inv.args, GIT_GLOBAL_SPEC);
  for (const c of g.values.get('c') ?? []) {
    const text = shellText(c);
    const eq = text.indexOf('=');
    const key = eq >= 0 ? text.slice(0, eq) : text;
    const value = eq >= 0 ? text.slice(eq + 1) : '';
    if (/^alias\./i.test(key) && value.startsWith('!')) env.nestedSource(value.slice(1), `git alias ${key}`);
    else if (value !== '' && /(pager|editor|sshcommand|askpass|\.cmd$|command$)/i.test(key)) env.nestedSource(value, `git ${key}`);
    if (/(pager|editor|command|sshcommand|askpass|external|fsmonitor|hook|textconv|helper|program|viewer|browser|proxy|uploadpack|receivepack|insteadof|^protocol\.|^trace2\.|^remote\..*\.(url|vcs)$|^alias\.|\.cmd$|\.path$|^filter\.|^include)/i.test(key)) out.yellow(`git -c ${key} makes git run a program (or read config that may)`);
  }
  if (g.has('config-env')) out.yellow('git --config-env sets configuration from the environment');
  const [sub, ...rest] = g.operands;
  if (!sub) return out.green('git only prints help');
  const name = sub.value;
  if (name === undefined) return out.yellow('git subcommand known only at run time');
  const rule = GIT_SUBCOMMANDS[name];
  if (name === 'help' && rest.some((a) => a.value !== undefined && /^(-w|--web)$/.test(a.value))) out.yellow('git help --web opens a web browser');
  if (rule) rule(rest, out, env);
  else if (GIT_READ.has(name)) out.green(`git ${name} only reads`);
  else if (Object.hasOwn(GIT_CHANGE, name)) {
    if (name === 'clone' && rest.length > 0) {
      const o = parseOptions(rest, { shortValue: 'obuc', longValue: ['origin', 'branch', 'upload-pack', 'template', 'reference', 'separate-git-dir', 'depth', 'shallow-since', 'shallow-exclude', 'config', 'filter', 'jobs', 'bundle-uri', 'server-option', 'ref-format'] });
      if (o.operands[1]) checkPath(o.operands[1], 'write', out, env.paths);
    }
    out.yellow(`git ${name} ${GIT_CHANGE[name] as string}`);
  } else out.yellow(`git ${name} is not a git command Tandem knows (an alias or an extension?)`);
  // A read-only subcommand: GREEN only if nothing in the effective config makes git run a program for it.
  if (out.level === 'green') checkGitConfigPrograms({ sub: name, args: rest, global: g }, out, env);
};
