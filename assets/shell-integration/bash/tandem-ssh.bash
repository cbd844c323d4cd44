# Tandem: an interactive `ssh host` carries the shell integration to the remote shell
# (docs/ssh.md). Sourced by tandem.bash after the user's startup files, and only when the user
# has no `ssh` alias or function of their own. `ssh` becomes an alias of __tandem_ssh, so
# `\ssh`, `command ssh` and scripts run the real ssh. Everything that is not an interactive
# login (decided by ssh/decide.sh) goes to the real ssh untouched.

# Texts, not paths: a remote hop has no files to read them from later.
__tandem_ssh_stage0=
__tandem_ssh_decide=
[[ -r "${__tandem_ssh_files[0]-}" ]] && __tandem_ssh_stage0="$(<"${__tandem_ssh_files[0]}")"
[[ -r "${__tandem_ssh_files[1]-}" ]] && __tandem_ssh_decide="$(<"${__tandem_ssh_files[1]}")"
# Local only (a remote hop has neither): the servers that refused the bootstrap before, and
# the directory where the engine answers whether an ssh that failed is tried again plain.
__tandem_ssh_plain_hosts="${__tandem_ssh_files[2]-}"
__tandem_ssh_verdicts="${__tandem_ssh_files[3]-}"

# The trusted start mark: this shell's nonce, the connection id, the destination as typed,
# the server as user@hostname:port.
__tandem_ssh_start() {
  { builtin local -; builtin set +aeuvx; } 2>/dev/null
  builtin local dest
  __tandem_percent_encode "$2"
  dest="$__tandem_encoded"
  __tandem_percent_encode "$3"
  builtin printf '\e]6973;ssh;start;tandem=%s;conn=%s;dest=%s;key=%s\a' "$__tandem_nonce" "$1" "$dest" "$__tandem_encoded"
}

# The wrapped ssh of connection $1 failed with $2: asks the engine (an end mark; the answer in
# a file) whether the server refused our command before anything ran there. True: connect
# again without integration.
__tandem_ssh_retry() {
  { builtin local -; builtin set +aeuvx; } 2>/dev/null
  builtin local verdict= file i
  case "$2" in 0 | 130 | 255) return 1 ;; esac
  [[ -n "$__tandem_ssh_verdicts" && -d "$__tandem_ssh_verdicts" ]] || return 1
  file="$__tandem_ssh_verdicts/ssh-verdict.$1"
  builtin printf '\e]6973;ssh;end;tandem=%s;conn=%s;status=%s\a' "$__tandem_nonce" "$1" "$2"
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
  builtin local decision= conn= key= status
  # Inside tmux or screen the shell has no integration of its own to carry; no terminal, no login.
  if [[ -n "$__tandem_ssh_stage0" && -n "$__tandem_ssh_decide" && -t 0 && -t 1 && -z "${TMUX-}" && -z "${STY-}" ]]; then
    # Its stdout is a pipe here; the terminal was tested above, hence --assume-tty.
    decision="$(SSH_DECIDE_PLAIN_HOSTS="$__tandem_ssh_plain_hosts" command sh -c "$__tandem_ssh_decide" ssh --assume-tty "$@" 2>/dev/null)"
  fi
  if [[ "$decision" == wrap* ]]; then
    key="${decision#wrap}"
    key="${key# }"
    conn="$(command od -An -N8 -tx1 /dev/urandom 2>/dev/null)"
    conn="${conn//[!0-9a-f]/}"
  elif [[ "$decision" == 'pass plain-host' ]]; then
    builtin printf '%s\n' "tandem: this server refused Tandem's ssh bootstrap before; plain ssh (\`tandem ssh --forget-plain HOST\` tries again)" >&2
  fi
  if [[ ${#conn} -ne 16 ]]; then
    command ssh "$@"
    return
  fi
  { __tandem_ssh_start "$conn" "$*" "$key"; } 2>/dev/null
  command ssh -t "$@" "$__tandem_ssh_stage0 $conn"
  status=$?
  if { __tandem_ssh_retry "$conn" "$status"; } 2>/dev/null; then
    builtin printf '%s\n' "tandem: the server refused Tandem's ssh bootstrap; connecting without integration" >&2
    command ssh "$@"
    return
  fi
  return "$status"
}

if ! builtin alias ssh >/dev/null 2>&1 && ! builtin declare -F ssh >/dev/null 2>&1; then
  builtin alias ssh=__tandem_ssh
fi
