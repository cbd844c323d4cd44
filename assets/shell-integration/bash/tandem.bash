# Tandem shell integration for bash (4.4+; older versions get their startup files, no marks).
#
# Tandem starts `bash --posix [-l]` with ENV pointing here: in POSIX mode an interactive
# bash reads $ENV and nothing else, so this file runs first, turns POSIX mode off again,
# loads the user's startup files exactly as bash would have, and then installs hooks.
# Starting bash this way (rather than with --rcfile) keeps `shopt login_shell`, `logout`
# and ~/.bash_logout working for login shells.
#
# Marks (each carries this session's nonce so programs cannot forge them):
#   D;<status>  before the next prompt, only after a command ran      (PROMPT_COMMAND, first)
#   OSC 7       current directory, at every prompt                    (PROMPT_COMMAND, first)
#   A           prompt start, at the start of PS1                     (kept there every prompt)
#   B           input start, at the end of PS1, inside \[ \]          (kept there every prompt)
#   C           command start with the exact command line and the cwd (PS0, after reading it)
#
# The command line comes from readline itself: Enter is bound to a macro that first calls
# a `bind -x` function (which sees READLINE_LINE) and then accept-line, so continuation
# lines, leading spaces, tabs and Unicode are reported exactly as typed, whatever
# HISTCONTROL says. Without readline the last history entry is used instead.
#
# Nothing here is exported; every TANDEM_* bootstrap variable is gone before the first
# prompt, so a nested bash is a plain bash. Our variables are arrays (used through element
# 0), which bash never puts in the environment, not even under `set -a`; and each hook
# switches allexport, xtrace and verbose off for itself (`local -`), inside a `{ …; }
# 2>/dev/null` group so that not even that is traced: `set -x` shows the user's commands,
# never ours or the nonce.

builtin set +o posix
# --posix also turned this on, and leaving POSIX mode does not turn it off.
builtin shopt -u inherit_errexit 2>/dev/null

# --- bootstrap ---------------------------------------------------------------------------
if [[ -n "${TANDEM_ENV_SET-}" ]]; then
  builtin export ENV="${TANDEM_ENV-}"
else
  builtin unset ENV
fi
if [[ -n "${TANDEM_BASH_UNEXPORT_HISTFILE-}" ]]; then
  # Only exported so that POSIX mode would not default it to ~/.sh_history.
  builtin export -n HISTFILE
fi

# Declared before anything is assigned (and before the user's files could turn on allexport).
builtin declare -a __tandem_nonce __tandem_mark_a __tandem_mark_b __tandem_ps1_a __tandem_ps0 \
  __tandem_once __tandem_ran __tandem_typed_url __tandem_typed_lines __tandem_c_head __tandem_c_tail __tandem_histcmd \
  __tandem_encoded __tandem_last_status __tandem_debug_status __tandem_debug_flags __tandem_fresh \
  __tandem_debug_chain __tandem_seen_prompt_command __tandem_check_trap __tandem_f \
  __tandem_flags __tandem_rcfile __tandem_startup __tandem_trap __tandem_step_env __tandem_step_saved \
  __tandem_env_names __tandem_env_sent __tandem_here __tandem_ssh_files __tandem_ssh_dir \
  __tandem_ssh_stage0 __tandem_ssh_decide __tandem_ssh_plain_hosts __tandem_ssh_verdicts
__tandem_here="${BASH_SOURCE[0]%/*}"
__tandem_trap='{ __tandem_debug_trap "$_"; } 19>&2 2>/dev/null'
if [[ -n "${TANDEM_BOOTSTRAP-}" ]]; then
  if [[ -r "$TANDEM_BOOTSTRAP" ]]; then
    builtin read -r __tandem_nonce <"$TANDEM_BOOTSTRAP"
  fi
  command rm -f -- "$TANDEM_BOOTSTRAP" 2>/dev/null
  command rmdir -- "${TANDEM_BOOTSTRAP%/*}" 2>/dev/null
fi
[[ "$__tandem_nonce" =~ ^[A-Za-z0-9_-]{8,128}$ ]] || __tandem_nonce=

__tandem_flags=" ${TANDEM_BASH_FLAGS-} "
__tandem_rcfile="${TANDEM_BASH_RCFILE-}"
__tandem_step_env="${TANDEM_STEP_ENV-}"
# ssh carries the integration (tandem-ssh.bash); on a remote host, the private dir it came in.
__tandem_ssh_files=("${TANDEM_SSH_STAGE0-}" "${TANDEM_SSH_DECIDE-}" "${TANDEM_SSH_PLAIN_HOSTS-}" "${TANDEM_SSH_VERDICTS-}")
__tandem_ssh_dir="${TANDEM_SSH_DIR-}"
__tandem_step_saved=()
# The variables whose exported values go to Tandem with each prompt (see __tandem_report_env).
builtin read -r -a __tandem_env_names <<<"${TANDEM_REPORT_ENV-}"
__tandem_env_sent=()
builtin unset -v TANDEM_BOOTSTRAP TANDEM_ENV TANDEM_ENV_SET TANDEM_BASH_UNEXPORT_HISTFILE \
  TANDEM_BASH_FLAGS TANDEM_BASH_RCFILE TANDEM_REPORT_ENV
builtin unset -v "${!TANDEM_@}"

# --- hooks -------------------------------------------------------------------------------
# The functions that print the marks and keep PROMPT_COMMAND, PS0, PS1 and the DEBUG trap
# in order; shipped beside this file (locally and over ssh).
# Without them (a partial copy) there are no marks: Tandem falls back to prompt heuristics.
builtin source "$__tandem_here/tandem-hooks.bash" || __tandem_nonce=

# The one command that runs after the user's startup files: each top-level command from
# here on would be one more call of the user's DEBUG trap before the first prompt.
# $1: `trap -p DEBUG`, taken at top level.
__tandem_main() {
  { builtin local -; builtin set +aeuvx; } 2>/dev/null
  builtin unset -v __tandem_f __tandem_startup __tandem_flags __tandem_rcfile
  builtin unset -f __tandem_main
  # PS0, `local -` and ${var@a} need bash 4.4 (macOS still ships 3.2 as /bin/bash): older
  # ones get the user's startup files and no marks; Tandem falls back to prompt heuristics.
  if [[ -n "$__tandem_nonce" && "$-" == *i* ]] &&
    (( BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 4) )); then
    __tandem_install "${1-}"
    [[ -z "${__tandem_ssh_files[0]}" ]] || builtin source "$__tandem_here/tandem-ssh.bash"
  else
    builtin unset -v __tandem_nonce
  fi
  # Everything of ours is read: the directory stage 1 unpacked us into goes (docs/ssh.md).
  [[ -z "$__tandem_ssh_dir" ]] || command rm -rf -- "$__tandem_ssh_dir"
}

# --- the user's startup files, as bash itself would read them ----------------------------
# (Sourced at top level, not from a function, so `declare`/`local` in them mean what the
# user expects. See INVOCATION in bash(1) and run_startup_files() in bash's shell.c.)
if builtin shopt -q login_shell; then
  if [[ "$__tandem_flags" != *" noprofile "* ]]; then
    [[ -e /etc/profile ]] && __tandem_startup+=(/etc/profile)
    for __tandem_f in "$HOME/.bash_profile" "$HOME/.bash_login" "$HOME/.profile"; do
      if [[ -e "$__tandem_f" ]]; then
        __tandem_startup+=("$__tandem_f")
        break
      fi
    done
  fi
elif [[ "$__tandem_flags" != *" norc "* ]]; then
  # The system bashrc is a compile-time choice (SYS_BASHRC): Debian, Ubuntu and Arch use
  # /etc/bash.bashrc, Gentoo and Void /etc/bash/bashrc; Fedora has none (~/.bashrc sources
  # /etc/bashrc itself).
  for __tandem_f in /etc/bash.bashrc /etc/bash/bashrc; do
    if [[ -e "$__tandem_f" ]]; then
      __tandem_startup+=("$__tandem_f")
      break
    fi
  done
  __tandem_startup+=("${__tandem_rcfile:-$HOME/.bashrc}")
fi
for __tandem_f in "${__tandem_startup[@]}"; do
  if [[ -d "$__tandem_f" ]]; then
    builtin printf 'tandem: %s is a directory, not a startup file; skipped it\n' "$__tandem_f" >&2
  elif [[ -e "$__tandem_f" && ! -r "$__tandem_f" ]]; then
    builtin printf 'tandem: cannot read %s (permission denied); skipped it\n' "$__tandem_f" >&2
  elif [[ -e "$__tandem_f" ]]; then
    builtin source "$__tandem_f"
  fi
done
{ __tandem_main "$(trap -p DEBUG)"; } 2>/dev/null

