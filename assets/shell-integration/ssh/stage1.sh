# Tandem's ssh bootstrap, stage 1 (docs/ssh.md). Runs under `sh -c` on the remote host as the
# remote command of a wrapped `ssh`; $1 is the connection id. It asks the terminal for the
# integration scripts and a fresh nonce (typed back into the tty while echo is off), unpacks
# them into a private directory and starts the user's login shell with them, as Tandem does
# locally. Every failure ends in the plain login shell and one line saying why: the user is
# never left without a shell. Lines starting with # are dropped before it is sent.
tandem_conn=$1
tandem_host=$(uname -n 2>/dev/null) || tandem_host=
tandem_login() {
  case "${SHELL:-}" in /*) ;; *) SHELL=/bin/sh ;; esac
  exec "$SHELL" -l
  exec "$SHELL"
}
# $1: a short code for Tandem's pane notice; $2: the reason in words.
tandem_fail() {
  [ -n "${tandem_tty:-}" ] && stty "$tandem_tty" </dev/tty 2>/dev/null
  [ -n "${tandem_dir:-}" ] && rm -rf "$tandem_dir"
  printf '\033]6973;ssh;fallback;conn=%s;reason=%s;host=%s\007' "$tandem_conn" "$1" "$(tandem_field "$tandem_host")" 2>/dev/null >/dev/tty
  printf 'tandem: no integration on %s (%s); plain shell\r\n' "${tandem_host:-this host}" "$2" >&2
  tandem_login
}
# Request fields must not end the OSC or split its fields.
tandem_field() {
  printf '%s' "$1" | tr -d ';\000-\037\177'
}
case "$tandem_conn" in ''|*[!0-9a-f]*) tandem_conn=0000000000000000; tandem_fail no-conn "no connection id" ;; esac
[ -t 0 ] && [ -t 1 ] || tandem_fail no-tty "no terminal"
tandem_shell=${SHELL##*/}
case "$tandem_shell" in
  bash|zsh|fish) ;;
  *) tandem_fail shell "login shell ${tandem_shell:-unknown} is not bash, zsh or fish" ;;
esac
for tandem_cmd in base64 gzip tar mktemp stty tr; do
  command -v "$tandem_cmd" >/dev/null 2>&1 || tandem_fail tools "$tandem_cmd not found"
done
if [ "$tandem_shell" = zsh ]; then
  # A fresh account: let zsh-newuser-install ask its questions, without us in the way.
  tandem_has_rc=
  for tandem_f in .zshenv .zprofile .zshrc .zlogin; do
    [ -e "${ZDOTDIR:-$HOME}/$tandem_f" ] && tandem_has_rc=1
  done
  [ -n "$tandem_has_rc" ] || tandem_fail zsh-new "no zsh startup files yet"
fi
tandem_base=
if [ -n "${XDG_RUNTIME_DIR:-}" ] && [ -d "$XDG_RUNTIME_DIR" ] && [ -O "$XDG_RUNTIME_DIR" ] && [ -w "$XDG_RUNTIME_DIR" ]; then
  tandem_base=$XDG_RUNTIME_DIR
else
  tandem_base=${TMPDIR:-/tmp}
fi
# Directories of earlier connections whose shell is gone (a dropped link, kill -9).
for tandem_old in "$tandem_base"/tandem-ssh.*.*; do
  [ -d "$tandem_old" ] && [ -O "$tandem_old" ] || continue
  tandem_pid=${tandem_old#"$tandem_base"/tandem-ssh.}
  tandem_pid=${tandem_pid%%.*}
  case "$tandem_pid" in ''|*[!0-9]*) continue ;; esac
  kill -0 "$tandem_pid" 2>/dev/null || rm -rf "$tandem_old"
done
tandem_dir=$(umask 077 && mktemp -d "$tandem_base/tandem-ssh.$$.XXXXXX" 2>/dev/null) || tandem_dir=
[ -n "$tandem_dir" ] || tandem_fail tempdir "cannot create a private directory in $tandem_base"
tandem_tty=$(stty -g </dev/tty 2>/dev/null) || tandem_fail stty "stty failed"
# No echo; non-canonical with a 3 s inactivity timeout, so a request nobody answers cannot hang.
stty -echo -icanon min 0 time 30 </dev/tty 2>/dev/null || tandem_fail stty "stty failed"
printf '\033]6973;ssh;request;conn=%s;user=%s;host=%s;os=%s;arch=%s;shell=%s;home=%s\007' "$tandem_conn" \
  "$(tandem_field "$(id -un 2>/dev/null)")" "$(tandem_field "$tandem_host")" \
  "$(tandem_field "$(uname -s 2>/dev/null)")" "$(tandem_field "$(uname -m 2>/dev/null)")" \
  "$(tandem_field "$SHELL")" "$(tandem_field "$HOME")" >/dev/tty
tandem_state=wait
while IFS= read -r tandem_line; do
  case "$tandem_state:$tandem_line" in
    wait:TANDEM-BEGIN) tandem_state=data ;;
    wait:*) ;;
    data:TANDEM-END) tandem_state=done; break ;;
    data:*) printf '%s\n' "$tandem_line" ;;
  esac
done </dev/tty >"$tandem_dir/payload.b64"
stty "$tandem_tty" </dev/tty 2>/dev/null
tandem_tty=
[ "$tandem_state" = done ] || tandem_fail timeout "no answer from Tandem within 3 s"
base64 -d <"$tandem_dir/payload.b64" 2>/dev/null | gzip -dc 2>/dev/null | (cd "$tandem_dir" && tar xf - 2>/dev/null) || tandem_fail unpack "the integration did not unpack"
rm -f "$tandem_dir/payload.b64"
[ -r "$tandem_dir/n/nonce" ] || tandem_fail unpack "the integration did not unpack"
export TANDEM_BOOTSTRAP="$tandem_dir/n/nonce" TANDEM_SSH_DIR="$tandem_dir"
# The remote shell's own ssh wrapper carries the integration one hop further.
if [ -r "$tandem_dir/ssh/stage0" ]; then
  export TANDEM_SSH_STAGE0="$tandem_dir/ssh/stage0" TANDEM_SSH_DECIDE="$tandem_dir/ssh/decide.sh"
fi
case $tandem_shell in
  bash)
    if [ -n "${ENV+x}" ]; then export TANDEM_ENV_SET=1 TANDEM_ENV="$ENV"; fi
    if [ -z "${HISTFILE:-}" ]; then export HISTFILE="$HOME/.bash_history" TANDEM_BASH_UNEXPORT_HISTFILE=1; fi
    export ENV="$tandem_dir/bash/tandem.bash"
    exec "$SHELL" --posix -l ;;
  zsh)
    if [ -n "${ZDOTDIR+x}" ]; then export TANDEM_ZDOTDIR="$ZDOTDIR"; fi
    export ZDOTDIR="$tandem_dir/zsh"
    exec "$SHELL" -l ;;
  fish)
    exec "$SHELL" -l --init-command "source '$tandem_dir/fish/tandem.fish'" ;;
esac
tandem_fail exec "could not start $SHELL"
