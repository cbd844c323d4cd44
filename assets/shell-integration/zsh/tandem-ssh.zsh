# Tandem: an interactive `ssh host` carries the shell integration to the remote shell
# (docs/ssh.md). Sourced after the user's .zshrc, and only used when the user has no `ssh`
# alias or function of their own. `ssh` becomes an alias of __tandem_ssh, so `\ssh`,
# `command ssh` and scripts run the real ssh. Everything that is not an interactive login
# (decided by ssh/decide.sh) goes to the real ssh untouched.

# Texts, not paths: a remote hop has no files to read them from later.
builtin typeset -g __tandem_ssh_stage0= __tandem_ssh_decide=
[[ -r "${__tandem_ssh_files[1]-}" ]] && __tandem_ssh_stage0="$(<"${__tandem_ssh_files[1]}")"
[[ -r "${__tandem_ssh_files[2]-}" ]] && __tandem_ssh_decide="$(<"${__tandem_ssh_files[2]}")"

# The trusted start mark: this shell's nonce, the connection id, the destination as typed.
__tandem_ssh_start() {
  { builtin emulate -L zsh -o no_xtrace -o no_verbose -o no_all_export; } 2>/dev/null
  __tandem_percent_encode "$2"
  builtin print -rn -- $'\e]6973;ssh;start;tandem='"$__tandem_nonce;conn=$1;dest=$REPLY"$'\a'
}

__tandem_ssh() {
  builtin emulate -L zsh
  builtin local decision= conn=
  # Inside tmux or screen the shell has no integration of its own to carry; no terminal, no login.
  if [[ -n "$__tandem_ssh_stage0" && -n "$__tandem_ssh_decide" && -t 0 && -t 1 && -z "${TMUX-}" && -z "${STY-}" ]]; then
    # Its stdout is a pipe here; the terminal was tested above, hence --assume-tty.
    decision="$(command sh -c "$__tandem_ssh_decide" ssh --assume-tty "$@" 2>/dev/null)"
  fi
  if [[ "$decision" == wrap ]]; then
    conn="$(command od -An -N8 -tx1 /dev/urandom 2>/dev/null)"
    conn="${conn//[^0-9a-f]/}"
  fi
  if (( ${#conn} != 16 )); then
    command ssh "$@"
    return
  fi
  { __tandem_ssh_start "$conn" "$*" } 2>/dev/null
  command ssh -t "$@" "$__tandem_ssh_stage0 $conn"
}

if (( ! ${+aliases[ssh]} && ! ${+functions[ssh]} )); then
  builtin alias ssh=__tandem_ssh
fi
