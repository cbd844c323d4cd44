# Tandem: an interactive `ssh host` carries the shell integration to the remote shell
# (docs/ssh.md). Sourced by tandem.fish only when no `ssh` function existed. `command ssh`
# and a typed `\ssh` bypass it, as in bash and zsh. Everything that is not an interactive login
# (decided by ssh/decide.sh) goes to the real ssh untouched.

# Texts, not paths: a remote hop has no files to read them from later.
set -g __tandem_ssh_stage0
set -g __tandem_ssh_decide
test -r "$__tandem_ssh_files[1]"; and set __tandem_ssh_stage0 (string collect <$__tandem_ssh_files[1])
test -r "$__tandem_ssh_files[2]"; and set __tandem_ssh_decide (string collect <$__tandem_ssh_files[2])
# Local only (a remote hop has neither): the servers that refused the bootstrap before, and
# the directory where the engine answers whether an ssh that failed is tried again plain.
set -g __tandem_ssh_plain_hosts "$__tandem_ssh_files[3]"
set -g __tandem_ssh_verdicts "$__tandem_ssh_files[4]"

# The trusted start mark: this shell's nonce, the connection id, the destination as typed,
# the server as user@hostname:port.
function __tandem_ssh_start
    set -l fish_trace
    printf '\e]6973;ssh;start;tandem=%s;conn=%s;dest=%s;key=%s\a' $__tandem_nonce $argv[1] (string escape --style=url -- "$argv[2]") (string escape --style=url -- "$argv[3]")
end

# The wrapped ssh of connection $argv[1] failed with $argv[2]: asks the engine (an end mark;
# the answer in a file) whether the server refused our command before anything ran there.
# True: connect again without integration.
function __tandem_ssh_retry
    set -l fish_trace
    contains -- $argv[2] 0 130 255; and return 1
    test -n "$__tandem_ssh_verdicts" -a -d "$__tandem_ssh_verdicts"; or return 1
    set -l file "$__tandem_ssh_verdicts/ssh-verdict.$argv[1]"
    printf '\e]6973;ssh;end;tandem=%s;conn=%s;status=%s\a' $__tandem_nonce $argv[1] $argv[2]
    # The engine answers every end mark of a connection it knows, at once unless the machine is
    # very busy (a CI run once took more than 5 s); up to 20 s, Ctrl+C ends the wait.
    for i in (seq 400)
        test -f "$file"; and break
        command sleep 0.05
    end
    set -l verdict
    test -f "$file"; and read verdict <"$file"
    command rm -f -- "$file"
    test "$verdict" = plain
end

# fish calls the function for `\ssh` too (the backslash only quotes a letter): a command line
# with `\ssh` as a word runs every ssh of that line plain, as bash and zsh run that one.
function __tandem_ssh_note_bypass --on-event fish_preexec
    set -g __tandem_ssh_bypass 0
    string match -qr '(^|[\s;&|(])\\\\ssh(\s|$)' -- "$argv[1]"; and set -g __tandem_ssh_bypass 1
end

function ssh --wraps ssh --description 'ssh; an interactive login carries Tandem\'s integration along'
    if test "$__tandem_ssh_bypass" = 1
        command ssh $argv
        return
    end
    set -l decision
    set -l key
    # Inside tmux or screen the shell has no integration of its own to carry; no terminal, no login.
    if test -n "$__tandem_ssh_stage0" -a -n "$__tandem_ssh_decide"; and isatty stdin; and isatty stdout; and not set -q TMUX; and not set -q STY
        # Its stdout is a pipe here; the terminal was tested above, hence --assume-tty.
        set decision (SSH_DECIDE_PLAIN_HOSTS="$__tandem_ssh_plain_hosts" command sh -c "$__tandem_ssh_decide" ssh --assume-tty $argv 2>/dev/null)
    end
    set -l conn
    if test "$decision" = 'pass plain-host'
        echo "tandem: this server refused Tandem's ssh bootstrap before; plain ssh (`tandem ssh --forget-plain HOST` tries again)" >&2
    end
    if string match -q 'wrap*' -- "$decision"
        set key (string replace -r '^wrap ?' '' -- "$decision")
        set conn (command od -An -N8 -tx1 /dev/urandom 2>/dev/null | string replace -ra '[^0-9a-f]' '' | string join '')
    end
    if test (string length -- "$conn") -ne 16
        command ssh $argv
        return
    end
    __tandem_ssh_start $conn "$argv" "$key"
    command ssh -t $argv "$__tandem_ssh_stage0 $conn"
    set -l ssh_status $status
    if __tandem_ssh_retry $conn $ssh_status 2>/dev/null
        echo "tandem: the server refused Tandem's ssh bootstrap; connecting without integration" >&2
        command ssh $argv
        return
    end
    return $ssh_status
end
