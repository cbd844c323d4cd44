import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, writeFiles } from '../harness/shellSession';

/**
 * "Hostile" home directories: startup files the way real people have them — prompt
 * frameworks that rebuild the prompt, DEBUG traps, bash-preexec, `set -u`, history
 * settings, a ZDOTDIR set in .zshenv — each with counters that prove the user's own
 * hooks still ran.
 */

const BASH_PREEXEC = readFileSync(new URL('./fixtures/frameworks/bash-preexec-master.sh', import.meta.url), 'utf8');

/**
 * bash, login: .bash_profile sources .bashrc; set -u; HISTCONTROL=ignoreboth; a DEBUG trap
 * counting commands; an ERR trap logging failures; a string PROMPT_COMMAND whose starship-like function rebuilds a
 * two-line PS1 showing $? every time; the default HISTFILE (~/.bash_history).
 */
export function bashStringPromptHome(): string {
  const home = makeTempDir('bash-string');
  writeFiles(home, {
    '.bash_profile': ['echo bash_profile >> ~/startup.log', '[ -f ~/.bashrc ] && . ~/.bashrc', ''].join('\n'),
    '.bash_login': 'echo bash_login >> ~/startup.log\n',
    '.profile': 'echo profile >> ~/startup.log\n',
    '.bashrc': [
      'echo bashrc >> ~/startup.log',
      'set -u',
      'HISTCONTROL=ignoreboth',
      'HISTSIZE=1000',
      'shopt -s histappend',
      "trap '__user_debug_count=$(( ${__user_debug_count:-0} + 1 ))' DEBUG",
      "trap 'echo \"err $? ${FUNCNAME[0]-}\" >> ~/err.log' ERR",
      '__starship_like() {',
      '  local status=$?',
      '  PS1="\\u@demo \\w"$\'\\n\'"[${status}] \\$ "',
      '  echo "$status" >> ~/pc_status.log',
      '  return $status',
      '}',
      'PROMPT_COMMAND=\'__starship_like; echo "$__user_debug_count" >> ~/debug_count.log\'',
      '',
    ].join('\n'),
  });
  return home;
}

/** bash: PROMPT_COMMAND as an array (bash 5.1+), ignorespace, vi editing mode, set -u. */
export function bashArrayPromptHome(): string {
  const home = makeTempDir('bash-array');
  writeFiles(home, {
    '.bash_profile': '. ~/.bashrc\n',
    '.bashrc': [
      'set -u',
      'HISTCONTROL=ignorespace',
      'HISTFILE=~/.my_history',
      'set -o vi',
      '__user_pc_one() { echo "one $?" >> ~/pc.log; }',
      '__user_pc_two() { echo "two $?" >> ~/pc.log; }',
      'PROMPT_COMMAND=(__user_pc_one __user_pc_two)',
      "PS1='[$?] vi\\$ '",
      '',
    ].join('\n'),
  });
  return home;
}

/**
 * bash with bash-preexec (the fixture of its current master, see
 * fixtures/frameworks/bash-preexec-master.sh): a DEBUG trap set before it loads
 * (bash-preexec turns it into a preexec function), preexec/precmd functions that log what
 * they are given, a starship-style precmd function rebuilding PS1, and a history file from
 * an earlier session (bash-preexec must not report its last line as a command).
 */
export function bashPreexecHome(): string {
  const home = makeTempDir('bash-preexec');
  writeFiles(home, {
    'bash-preexec.sh': BASH_PREEXEC,
    '.bash_profile': '. ~/.bashrc\n',
    '.bash_history': 'echo from-the-last-session\n',
    '.bashrc': [
      'set -u',
      'HISTCONTROL=ignoreboth',
      "trap 'echo x >> ~/original_debug.log' DEBUG",
      'source ~/bash-preexec.sh',
      "user_preexec() { printf '%s\\0' \"$1\" >> ~/preexec.log; }",
      'user_precmd() { local s=$?; echo "precmd $s" >> ~/precmd.log; PS1="bp[$s]\\$ "; }',
      'preexec_functions+=(user_preexec)',
      'precmd_functions+=(user_precmd)',
      '',
    ].join('\n'),
  });
  return home;
}

/**
 * zsh: .zshenv moves ZDOTDIR to ~/.config/zsh, where .zprofile, .zshrc and .zlogin live;
 * nounset, prompt_subst, hist_ignore_space, inc_append_history; precmd_functions and
 * preexec_functions already set; a powerlevel10k-like precmd rebuilding a two-line PROMPT.
 */
export function zshHostileHome(): string {
  const home = makeTempDir('zsh');
  writeFiles(home, {
    '.zshenv': ['export ZDOTDIR="$HOME/.config/zsh"', 'echo zshenv >> ~/startup.log', ''].join('\n'),
    '.zshrc': 'echo WRONG-home-zshrc >> ~/startup.log\n',
    '.config/zsh/.zprofile': 'echo zprofile >> ~/startup.log\n',
    '.config/zsh/.zlogin': 'echo zlogin >> ~/startup.log\n',
    '.config/zsh/.zshrc': [
      'echo zshrc >> ~/startup.log',
      'setopt nounset prompt_subst hist_ignore_space inc_append_history',
      'HISTFILE="$ZDOTDIR/.zsh_history"',
      'HISTSIZE=1000',
      'SAVEHIST=1000',
      'user_precmd() { print -r -- "precmd $?" >> ~/precmd.log }',
      'user_preexec() { print -rn -- "$1"$\'\\0\' >> ~/preexec.log }',
      'precmd_functions=(user_precmd)',
      'preexec_functions=(user_preexec)',
      'TRAPZERR() { print -r -- "zerr $?${funcstack[2]:+ in ${funcstack[2]}}" >> ~/zerr.log }',
      'autoload -Uz add-zsh-hook',
      '_p10k_like_precmd() {',
      '  local s=$?',
      '  _p9k_left="%n@demo %~"',
      '  PROMPT=\'${_p9k_left}\'$\'\\n\'"[$s] %# "',
      '}',
      'add-zsh-hook precmd _p10k_like_precmd',
      '',
    ].join('\n'),
  });
  return home;
}

/** fish: config.fish with a custom two-line fish_prompt and the user's own event handlers. */
export function fishHostileHome(): string {
  const home = makeTempDir('fish');
  writeFiles(home, {
    '.config/fish/config.fish': [
      'echo config >> ~/startup.log',
      'set -g fish_greeting',
      'function fish_prompt',
      '    set -l s $status',
      "    printf '%s\\n[%s] > ' (prompt_pwd) $s",
      'end',
      'function user_preexec --on-event fish_preexec',
      "    printf '%s\\0' $argv[1] >> ~/preexec.log",
      'end',
      'function user_postexec --on-event fish_postexec',
      '    echo "postexec $status" >> ~/postexec.log',
      'end',
      '',
    ].join('\n'),
  });
  return home;
}

export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

export function readLines(home: string, name: string): string[] {
  return readText(join(home, name))
    .split('\n')
    .filter((line) => line !== '');
}

/** NUL-separated records (what the users' preexec hooks write). */
export function readRecords(home: string, name: string): string[] {
  return readText(join(home, name))
    .split('\0')
    .filter((record) => record !== '');
}
