# Tandem: an interactive `ssh host` carries the shell integration to the remote shell
# (docs/ssh.md). Sourced by tandem.fish only when no `ssh` function existed. In fish only
# `command ssh` bypasses it (`\ssh` does not). Everything that is not an interactive login
# (decided by ssh/decide.sh) goes to the real ssh untouched.

# Texts, not paths: a remote hop has no files to read them from later.
set -g __tandem_ssh_stage0
set -g __tandem_ssh_decide
test -r "$__tandem_ssh_files[1]"; and set __tandem_ssh_stage0 (string collect <$__tandem_ssh_files[1])
test -r "$__tandem_ssh_files[2]"; and set __tandem_ssh_decide (string collect <$__tandem_ssh_files[2])

# The trusted start mark: this shell's nonce, the connection id, the destination as typed.
function __tandem_ssh_start
    set -l fish_trace
    printf '\e]6973;ssh;start;tandem=%s;conn=%s;dest=%s\a' $__tandem_nonce $argv[1] (string escape --style=url -- "$argv[2]")
end

function ssh --wraps ssh --description 'ssh; an interactive login carries Tandem\'s integration along'
    set -l decision
    # Inside tmux or screen the shell has no integration of its own to carry; no terminal, no login.
    if test -n "$__tandem_ssh_stage0" -a -n "$__tandem_ssh_decide"; and isatty stdin; and isatty stdout; and not set -q TMUX; and not set -q STY
        # Its stdout is a pipe here; the terminal was tested above, hence --assume-tty.
        set decision (command sh -c "$__tandem_ssh_decide" ssh --assume-tty $argv 2>/dev/null)
    end
    set -l conn
    if test "$decision" = wrap
        set conn (command od -An -N8 -tx1 /dev/urandom 2>/dev/null | string replace -ra '[^0-9a-f]' '' | string join '')
    end
    if test (string length -- "$conn") -ne 16
        command ssh $argv
        return
    end
    __tandem_ssh_start $conn "$argv"
    command ssh -t $argv "$__tandem_ssh_stage0 $conn"
end
