# Tandem: an interactive `ssh host` carries the shell integration to the remote shell
# (docs/ssh.md). Sourced after the user's .zshrc, and only used when the user has no `ssh`
# alias or function of their own. `ssh` becomes an alias of __tandem_ssh, so `\ssh`,
# `command ssh` and scripts run the real ssh. Everything that is not an interactive login
# (decided by ssh/decide.sh) goes to the real ssh untouched.

# Texts, not paths: a remote hop has no files to read them from later.
builtin typeset -g __tandem_ssh_stage0= __tandem_ssh_decide=
[[ -r "${__tandem_ssh_files[1]-}" ]] && __tandem_ssh_stage0="$(<"${__tandem_ssh_files[1]}")"
[[ -r "${__tandem_ssh_files[2]-}" ]] && __tandem_ssh_decide="$(<"${__tandem_ssh_files[2]}")"
# Local only (a remote hop has neither): the servers that refused the bootstrap before, and
# the directory where the engine answers whether an ssh that failed is tried again plain.
builtin typeset -g __tandem_ssh_plain_hosts="${__tandem_ssh_files[3]-}" __tandem_ssh_verdicts="${__tandem_ssh_files[4]-}"

# The trusted start mark: this shell's nonce, the connection id, the destination as typed,
# the server as user@hostname:port.
__tandem_ssh_start() {
  { builtin emulate -L zsh -o no_xtrace -o no_verbose -o no_all_export; } 2>/dev/null
  builtin local dest
  __tandem_percent_encode "$2"
  dest=$REPLY
  __tandem_percent_encode "$3"
  builtin print -rn -- $'\e]6973;ssh;start;tandem='"$__tandem_nonce;conn=$1;dest=$dest;key=$REPLY"$'\a'
}

# The wrapped ssh of connection $1 failed with $2: asks the engine (an end mark; the answer in
# a file) whether the server refused our command before anything ran there. True: connect
# again without integration.
__tandem_ssh_retry() {
  { builtin emulate -L zsh -o no_xtrace -o no_verbose -o no_all_export; } 2>/dev/null
  builtin local verdict= file i
  case "$2" in 0 | 130 | 255) return 1 ;; esac
  [[ -n "$__tandem_ssh_verdicts" && -d "$__tandem_ssh_verdicts" ]] || return 1
  file="$__tandem_ssh_verdicts/ssh-verdict.$1"
  builtin print -rn -- $'\e]6973;ssh;end;tandem='"$__tandem_nonce;conn=$1;status=$2"$'\a'
  # The engine answers every end mark of a connection it knows, at once unless the machine is
  # very busy (a CI run once took more than 5 s); up to 20 s, Ctrl+C ends the wait.
  for ((i = 0; i < 400; i++)); do
    [[ -f "$file" ]] && break
    command sleep 0.05
  done
  [[ -f "$file" ]] && builtin read -r verdict <"$file"
  command rm -f -- "$file"
  [[ "$verdict" == plain ]]
}

__tandem_ssh() {
  builtin emulate -L zsh
  builtin local decision= conn= key= ssh_status
  # Inside tmux or screen the shell has no integration of its own to carry; no terminal, no login.
  if [[ -n "$__tandem_ssh_stage0" && -n "$__tandem_ssh_decide" && -t 0 && -t 1 && -z "${TMUX-}" && -z "${STY-}" ]]; then
    # Its stdout is a pipe here; the terminal was tested above, hence --assume-tty.
    decision="$(SSH_DECIDE_PLAIN_HOSTS="$__tandem_ssh_plain_hosts" command sh -c "$__tandem_ssh_decide" ssh --assume-tty "$@" 2>/dev/null)"
  fi
  if [[ "$decision" == wrap* ]]; then
    key="${decision#wrap}"
    key="${key# }"
    conn="$(command od -An -N8 -tx1 /dev/urandom 2>/dev/null)"
    conn="${conn//[^0-9a-f]/}"
  elif [[ "$decision" == 'pass plain-host' ]]; then
    builtin print -r -- "tandem: this server refused Tandem's ssh bootstrap before; plain ssh (\`tandem ssh --forget-plain HOST\` tries again)" >&2
  fi
  if (( ${#conn} != 16 )); then
    command ssh "$@"
    return
  fi
  { __tandem_ssh_start "$conn" "$*" "$key" } 2>/dev/null
  command ssh -t "$@" "$__tandem_ssh_stage0 $conn"
  ssh_status=$?
  if { __tandem_ssh_retry "$conn" "$ssh_status" } 2>/dev/null; then
    builtin print -r -- "tandem: the server refused Tandem's ssh bootstrap; connecting without integration" >&2
    command ssh "$@"
    return
  fi
  return $ssh_status
}

if (( ! ${+aliases[ssh]} && ! ${+functions[ssh]} )); then
  builtin alias ssh=__tandem_ssh
fi
