# Tandem shell integration for zsh: the first of four stub startup files.
#
# Tandem starts zsh with ZDOTDIR pointing at this directory. Each stub puts the user's
# ZDOTDIR back (or unsets it: zsh then uses HOME), sources the user's file of the same
# name, notes the ZDOTDIR the user's file left behind (a .zshenv may set one), and points
# ZDOTDIR here again so zsh reads the next stub. The last stub (.zlogin for login shells,
# .zshrc otherwise) leaves the user's ZDOTDIR in place for good. Hooks are installed by
# .zshrc after the user's .zshrc. See docs/shell-integration.md.
#
# Every function here starts with `{ emulate -L zsh -o no_xtrace …; } 2>/dev/null`: a
# user's `setopt xtrace` must not trace our code (nor show the nonce), and not even that
# line is traced. allexport is off in zsh emulation, so nothing of ours is exported.

builtin typeset -g __tandem_zdotdir="${${(%):-%x}:A:h}"

() {
  { builtin emulate -L zsh -o no_xtrace -o no_verbose -o no_all_export; } 2>/dev/null
  builtin typeset -g __tandem_nonce=
  if [[ -n "${TANDEM_BOOTSTRAP-}" ]]; then
    if [[ -r "$TANDEM_BOOTSTRAP" ]]; then
      IFS= builtin read -r __tandem_nonce <"$TANDEM_BOOTSTRAP"
    fi
    command rm -f -- "$TANDEM_BOOTSTRAP" 2>/dev/null
    command rmdir -- "${TANDEM_BOOTSTRAP:h}" 2>/dev/null
  fi
  builtin setopt local_options extended_glob
  [[ "$__tandem_nonce" == [A-Za-z0-9_-](#c8,128) ]] || __tandem_nonce=
  # The user's ZDOTDIR as Tandem found it: set (and exported) or not set at all.
  builtin typeset -g __tandem_user_zdotdir_set= __tandem_user_zdotdir=
  if [[ -n "${TANDEM_ZDOTDIR+x}" ]]; then
    __tandem_user_zdotdir_set=1
    __tandem_user_zdotdir="$TANDEM_ZDOTDIR"
  fi
  builtin typeset -g __tandem_step_env="${TANDEM_STEP_ENV-}"
  # ssh carries the integration (tandem-ssh.zsh); on a remote host, the private dir it came in.
  builtin typeset -ga __tandem_ssh_files
  __tandem_ssh_files=("${TANDEM_SSH_STAGE0-}" "${TANDEM_SSH_DECIDE-}" "${TANDEM_SSH_PLAIN_HOSTS-}" "${TANDEM_SSH_VERDICTS-}")
  builtin typeset -g __tandem_ssh_dir="${TANDEM_SSH_DIR-}"
  # The variables whose exported values go to Tandem with each prompt (__tandem_report_env).
  builtin typeset -ga __tandem_env_names
  __tandem_env_names=(${(z)TANDEM_REPORT_ENV-})
  # `builtin typeset` cannot assign an array (only the reserved word can).
  builtin typeset -ga __tandem_step_saved
  __tandem_step_saved=()
  builtin unset -m 'TANDEM_*'
}

# Point ZDOTDIR where the user's startup files are, and name the one to source next.
__tandem_enter_user() {
  { builtin emulate -L zsh -o no_xtrace -o no_verbose -o no_all_export; } 2>/dev/null
  if [[ -n "$__tandem_user_zdotdir_set" ]]; then
    builtin export ZDOTDIR="$__tandem_user_zdotdir"
  else
    builtin unset ZDOTDIR
  fi
  builtin typeset -g __tandem_file="${ZDOTDIR:-$HOME}/$1"
  if [[ -d "$__tandem_file" ]]; then
    builtin print -ru2 -- "tandem: $__tandem_file is a directory, not a startup file; skipped it"
    __tandem_file=
  elif [[ -e "$__tandem_file" && ! -r "$__tandem_file" ]]; then
    builtin print -ru2 -- "tandem: cannot read $__tandem_file (permission denied); skipped it"
    __tandem_file=
  elif [[ ! -e "$__tandem_file" ]]; then
    __tandem_file=
  fi
}

# Note the ZDOTDIR the user's file left, then send zsh back to our stubs.
__tandem_leave_user() {
  { builtin emulate -L zsh -o no_xtrace -o no_verbose -o no_all_export; } 2>/dev/null
  if [[ -n "${ZDOTDIR+x}" ]]; then
    __tandem_user_zdotdir_set=1
    __tandem_user_zdotdir="$ZDOTDIR"
  else
    __tandem_user_zdotdir_set=
  fi
  builtin export ZDOTDIR="$__tandem_zdotdir"
}

# After the user's .zshrc: install the hooks (the user's .zshrc may have switched on
# xtrace or verbose, so this is one function call, not top-level code in the stub).
__tandem_after_zshrc() {
  { builtin emulate -L zsh -o no_xtrace -o no_verbose -o no_all_export; } 2>/dev/null
  __tandem_leave_user
  if [[ -n "${__tandem_nonce-}" && -o interactive ]]; then
    builtin source -- "$__tandem_zdotdir/tandem-integration.zsh"
    [[ -z "${__tandem_ssh_files[1]}" ]] || builtin source -- "$__tandem_zdotdir/tandem-ssh.zsh"
  else
    builtin unset __tandem_nonce
  fi
  [[ -o login ]] || __tandem_finish
}

# Startup is over: leave the user's ZDOTDIR and remove the helpers.
__tandem_finish() {
  { builtin emulate -L zsh -o no_xtrace -o no_verbose -o no_all_export; } 2>/dev/null
  if [[ -n "$__tandem_user_zdotdir_set" ]]; then
    builtin export ZDOTDIR="$__tandem_user_zdotdir"
  else
    builtin unset ZDOTDIR
  fi
  # Every startup file is read: the directory stage 1 unpacked us into goes (docs/ssh.md).
  [[ -z "$__tandem_ssh_dir" ]] || command rm -rf -- "$__tandem_ssh_dir"
  builtin unset __tandem_file __tandem_user_zdotdir __tandem_user_zdotdir_set __tandem_zdotdir __tandem_ssh_dir __tandem_ssh_files
  builtin unfunction __tandem_enter_user __tandem_leave_user __tandem_after_zshrc __tandem_finish
}

__tandem_enter_user .zshenv
[[ -z "$__tandem_file" ]] || builtin source -- "$__tandem_file"
__tandem_leave_user
