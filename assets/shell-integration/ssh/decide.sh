# Tandem: is this `ssh` command line an interactive login that Tandem may wrap?
#
#   sh decide.sh [--assume-tty] SSH-ARGUMENTS...
#   sh -c "$script_text" ssh [--assume-tty] SSH-ARGUMENTS...
#
# Prints one line and exits 0: `wrap USER@HOSTNAME:PORT` (the server as `ssh -G` resolves
# it), or `pass <reason>` where <reason> is one word (docs/ssh.md lists them). With
# $SSH_DECIDE_PLAIN_HOSTS naming Tandem's file of hosts that refused its bootstrap, a host
# in it passes as `plain-host`. The arguments are ssh's, exactly as the user typed them; they are
# only ever compared and passed on to `ssh -G` as separate words, never evaluated.
#
# Stdin and stdout must be terminals, or the answer is `pass not-a-tty`. A caller that reads
# the answer through `$(…)` has made stdout a pipe: it tests its own stdin and stdout and
# passes --assume-tty (tests pass it too).
#
# The grammar is OpenSSH's (ssh.c): BSD getopt without permutation, restarted once after the
# destination unless `--` came before it; the next non-option word starts the remote command.
# What the command line leaves open (a RemoteCommand or RequestTTY in ssh_config) comes from
# `ssh -G`, which reads the configuration without connecting. $SSH_DECIDE_SSH may name the
# ssh program (tests); it defaults to `ssh` on PATH.
#
# POSIX sh only (dash, busybox ash, bash --posix): no arrays, no `local`, no forks but `ssh -G`.

set -f

pass() {
  printf 'pass %s\n' "$1"
  exit 0
}

nl='
'
tab='	' # a literal tab: no printf, so no fork
ws=" $tab$nl"

# ssh compares keywords and the values checked here without regard to case (strcasecmp).
# The patterns below spell each word case-insensitively so that no `tr` has to run.
is_none() { case $1 in [Nn][Oo][Nn][Ee]) return 0 ;; esac; return 1; }
is_yes() { case $1 in [Yy][Ee][Ss] | [Tt][Rr][Uu][Ee]) return 0 ;; esac; return 1; }
is_no() { case $1 in [Nn][Oo] | [Ff][Aa][Ll][Ss][Ee]) return 0 ;; esac; return 1; }
is_subsystem() { case $1 in [Ss][Uu][Bb][Ss][Yy][Ss][Tt][Ee][Mm]) return 0 ;; esac; return 1; }

# One `-o` value, split as ssh's readconf does: keyword, then whitespace and/or one `=`.
# For each keyword the first value given wins, as in ssh.
seen_keys=' '
check_config_option() {
  option_line=${1#"${1%%[!"$ws"]*}"}
  option_line=${option_line%"${option_line##*[!"$ws"]}"}
  option_key=${option_line%%["$ws"=]*}
  option_value=${option_line#"$option_key"}
  option_value=${option_value#"${option_value%%[!"$ws"]*}"}
  option_value=${option_value#=}
  option_value=${option_value#"${option_value%%[!"$ws"]*}"}
  option_word=${option_value%%["$ws"]*}
  case $option_key in
    [Rr][Ee][Mm][Oo][Tt][Ee][Cc][Oo][Mm][Mm][Aa][Nn][Dd]) option_key=remotecommand ;;
    [Ss][Ee][Ss][Ss][Ii][Oo][Nn][Tt][Yy][Pp][Ee]) option_key=sessiontype ;;
    [Rr][Ee][Qq][Uu][Ee][Ss][Tt][Tt][Tt][Yy]) option_key=requesttty ;;
    [Ff][Oo][Rr][Kk][Aa][Ff][Tt][Ee][Rr][Aa][Uu][Tt][Hh][Ee][Nn][Tt][Ii][Cc][Aa][Tt][Ii][Oo][Nn]) option_key=forkafterauthentication ;;
    [Ss][Tt][Dd][Ii][Nn][Nn][Uu][Ll][Ll]) option_key=stdinnull ;;
    *) return 0 ;;
  esac
  [ -n "$option_value" ] || return 0
  case $seen_keys in *" $option_key "*) return 0 ;; esac
  seen_keys="$seen_keys$option_key "
  case $option_key in
    remotecommand) is_none "$option_value" || pass remote-command ;;
    sessiontype) is_none "$option_word" || is_subsystem "$option_word" && pass session-type ;;
    requesttty) is_no "$option_word" && pass no-tty ;;
    forkafterauthentication) is_yes "$option_word" && pass background ;;
    stdinnull) is_yes "$option_word" && pass stdin-null ;;
  esac
  return 0
}

# An option letter and its argument (the argument is empty for flags).
check_option() {
  case $1 in
    N) pass no-session ;;
    f) pass background ;;
    W) pass stdio-forward ;;
    O) pass mux-control ;;
    T) pass no-tty ;;
    G | V | Q) pass no-connection ;;
    s) pass subsystem ;;
    n) pass stdin-null ;;
    o) check_config_option "$2" ;;
  esac
}

if [ "${1-}" = --assume-tty ]; then
  shift
elif [ ! -t 0 ] || [ ! -t 1 ]; then
  pass not-a-tty
fi

# phase: options (before the destination), literal (after `--`, before the destination),
# again (options after the destination), command (everything left is the remote command).
phase=options
destination=
needs_argument=
for word do
  if [ -n "$needs_argument" ]; then
    check_option "$needs_argument" "$word"
    needs_argument=
    continue
  fi
  case $phase in
    literal)
      destination=$word
      phase='command'
      continue
      ;;
    command) pass remote-command ;;
  esac
  case $word in
    --)
      if [ "$phase" = options ]; then phase=literal; else phase='command'; fi
      continue
      ;;
    -?*) ;;
    *)
      [ "$phase" = again ] && pass remote-command
      destination=$word
      phase=again
      continue
      ;;
  esac
  letters=${word#-}
  while [ -n "$letters" ]; do
    letter=${letters%"${letters#?}"}
    letters=${letters#?}
    case $letter in
      [1246ACGKMNTVXYZafgknqstvxy]) check_option "$letter" ;;
      [BDEFIJLOPQRSWbceilmopw])
        if [ -n "$letters" ]; then
          check_option "$letter" "$letters"
        else
          needs_argument=$letter
        fi
        break
        ;;
      *) pass usage ;;
    esac
  done
done
[ -n "$needs_argument" ] && pass usage
[ -n "$destination" ] || pass usage

# The effective configuration: ssh_config's Host and Match blocks can add what the command
# line does not say. ssh -G fails where ssh itself would refuse the command line.
config=$(command "${SSH_DECIDE_SSH:-ssh}" -G "$@" </dev/null 2>/dev/null) || pass usage
config="$nl$config$nl"
case $config in
  *"${nl}remotecommand "*)
    case $config in *"${nl}remotecommand none$nl"*) ;; *) pass config-remote-command ;; esac
    ;;
esac
case $config in *"${nl}sessiontype none$nl"* | *"${nl}sessiontype subsystem$nl"*) pass config-session-type ;; esac
case $config in *"${nl}requesttty no$nl"* | *"${nl}requesttty false$nl"*) pass config-request-tty ;; esac
case $config in *"${nl}forkafterauthentication yes$nl"* | *"${nl}forkafterauthentication true$nl"*) pass config-background ;; esac
case $config in *"${nl}stdinnull yes$nl"* | *"${nl}stdinnull true$nl"*) pass config-stdin-null ;; esac

# `host:port` is no port form for ssh: it looks up a host named `host:2222` and fails. Pass so
# that its error reaches the user unchanged. IPv6 addresses have two colons or more.
hostname=${config#*"${nl}hostname "}
hostname=${hostname%%"$nl"*}
case $hostname in
  \[*) pass colon-in-host ;;
  *:*:*) ;;
  *:*) pass colon-in-host ;;
esac

# The server as ssh will reach it, whatever alias or spelling was typed: user@hostname:port.
user=${config#*"${nl}user "}
user=${user%%"$nl"*}
port=${config#*"${nl}port "}
port=${port%%"$nl"*}
# A name with a blank or a control character is no account or server ssh can reach, and the
# engine keeps keys one to a line: plain ssh, which says what is wrong with it.
case $user$hostname in *[[:space:][:cntrl:]]*) pass odd-name ;; esac
case $user in '' | '#'*) pass odd-name ;; esac
key=$user@$hostname:$port
# Hosts Tandem remembers as refusing its bootstrap (a line `KEY<tab>when<tab>why` each; the
# engine keeps the file): a plain ssh, at once.
if [ -n "${SSH_DECIDE_PLAIN_HOSTS:-}" ] && [ -f "$SSH_DECIDE_PLAIN_HOSTS" ] && [ -r "$SSH_DECIDE_PLAIN_HOSTS" ]; then
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in "$key" | "$key$tab"*) pass plain-host ;; esac
  done <"$SSH_DECIDE_PLAIN_HOSTS"
fi
printf 'wrap %s\n' "$key"
