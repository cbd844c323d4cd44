/**
 * Variable assignments and declarations: `PAGER='rm -rf /' git log` runs its value,
 * `LD_PRELOAD=… cmd` changes what a program loads, `X=1` on its own changes the session, and
 * `declare`/`export`/`unset` change variables unless they only list.
 */
import { toArg } from './rules/arguments';
import { checkArithmeticWords } from './rules/shellBuiltins';
import type { RuleEnv } from './rules/rule';
import type { Verdict } from './rules/verdict';
import { literalValue, type ShellCommand } from './shellParser';

/** Variables whose value some program runs as a command. */
export const CODE_VARIABLES = /^(PROMPT_COMMAND|BASH_ENV|ENV|\w*PAGER|PAGER_COLOR|EDITOR|VISUAL|GIT_EDITOR|GIT_SSH|GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|SUDO_ASKPASS|LESSOPEN|LESSCLOSE|LESSECHO|LESSGLOBALTAGS|MOST_EDITOR|SLANG_EDITOR|GREP|BROWSER|PS[0-4]|\w*_COMMAND)$/;
/** Variables that change what programs load or find. */
export const LOADER_VARIABLES = /^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|PATH|IFS|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|SHELLOPTS|BASHOPTS|GIT_CONFIG\w*|GIT_DIR|GIT_WORK_TREE|ZDOTDIR|XDG_CONFIG_HOME|BASH_FUNC_\S+|CDPATH|GLOBIGNORE|HOME|USERPROFILE|APPDATA|LOCALAPPDATA|LESS\w*|SYSTEMD_LESS|SYSTEMD_PAGERSECURE|MANOPT|MANROFFOPT|MANROFFSEQ|MAN_DISABLE_SECCOMP|TAR_OPTIONS|RIPGREP_CONFIG_PATH|BAT_CONFIG_PATH|BAT_OPTS|ACKRC|ACK_OPTIONS)$/;
/**
 * git reads these (issue 14): GIT_EXEC_PATH, GIT_COMMON_DIR, GIT_TRACE=file … change what it runs, reads or writes.
 * Only the ones that name an author, a prompt or a locking mode are left alone.
 */
const GIT_VARIABLES = /^GIT_(?!(AUTHOR|COMMITTER)_(NAME|EMAIL|DATE)$|TERMINAL_PROMPT$|OPTIONAL_LOCKS$|FLUSH$|MERGE_VERBOSITY$|ADVICE$|LITERAL_PATHSPECS$|GLOB_PATHSPECS$|NOGLOB_PATHSPECS$|ICASE_PATHSPECS$)\w+$/;

/** Whether a variable set for a command changes what that command (or what it starts) loads or runs. */
export function changesWhatRuns(name: string): boolean {
  return CODE_VARIABLES.test(name) || LOADER_VARIABLES.test(name) || GIT_VARIABLES.test(name);
}

/** The command's assignments; `standalone`: they are the whole command, so they last for the session. */
export function checkAssignments(cmd: ShellCommand, out: Verdict, standalone: boolean, env: RuleEnv): void {
  for (const a of cmd.assignments) {
    const value = a.value ? literalValue(a.value) : '';
    if (CODE_VARIABLES.test(a.name)) {
      if (value === undefined) out.yellow(`${a.name} is set to a command known only at run time`);
      else if (value.trim() !== '') {
        const level = env.nestedSource(value, `${a.name}=`);
        out.raise(level, `${a.name}=${value} makes programs run it`);
      }
    } else if (LOADER_VARIABLES.test(a.name) || GIT_VARIABLES.test(a.name)) {
      out.yellow(`${a.name}=… changes what programs load or run`);
    }
    if (standalone) out.yellow(`sets the shell variable ${a.name} for the rest of the session`);
  }
}

/** `declare`, `export`, `local`, `readonly`, `typeset`, `unset` (the keyword as written). */
export function checkDeclaration(cmd: ShellCommand, out: Verdict, keyword: string, env: RuleEnv): void {
  checkAssignments(cmd, out, false, env);
  const args = cmd.args.map(toArg);
  checkArithmeticWords(args, keyword, out, env);
  if (keyword !== 'unset' && args.every((a) => a.value !== undefined && /^-[pfFx]+$/.test(a.value))) out.green(`${keyword} only lists`);
  else out.yellow(`${keyword} changes shell variables or functions`);
}
