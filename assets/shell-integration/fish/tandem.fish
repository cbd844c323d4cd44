# Tandem shell integration for fish (3.1+).
#
# Tandem starts `fish [-l] --init-command 'source <this file>'`: fish has read the user's
# configuration (conf.d, config.fish) by then, so the user's prompt and event handlers
# exist and stay in charge; we only add our own handlers.
#
#   fish_postexec  D;<status>, only after a command ran
#   fish_prompt    OSC 7 with the cwd, then A (both printed before the prompt is drawn;
#                  also on fish_cancel and fish_posterror, which redraw it too);
#                  fish_prompt itself is wrapped so that B follows the user's prompt text
#                  (re-wrapped whenever the user or a theme redefines fish_prompt)
#   fish_preexec   C with the command line exactly as typed ($argv[1]) and the cwd
#
# The A mark carries the cwd (cwd=<percent-encoded>), which the tracker trusts; OSC 7 is
# still sent for other tools. Nothing of ours is exported (all `set -g`), and each handler
# shadows fish_trace with an empty local, so a user's `set fish_trace 1` traces that one
# line of ours and never the nonce.

# A user's `set fish_trace 1` must not trace this file (which handles the nonce): an empty
# local shadows it for the rest of the file.
set -l fish_trace
if set -q __tandem_nonce; and functions -q __tandem_wrap_prompt; and not set -q TANDEM_BOOTSTRAP
    # Sourced again, once integrated. Tools reload a prompt with `source (functions
    # --details fish_prompt)` (`tide reload`, `tide configure`), which names this file
    # since fish_prompt is our wrapper: reload the file the user's prompt came from and
    # wrap what it defines. The nonce and the handlers stay as they are.
    if test -f "$__tandem_user_prompt_file"
        source "$__tandem_user_prompt_file"
    end
    __tandem_wrap_prompt
else
    set -g __tandem_own_file (status filename)
    set -g __tandem_nonce
    if set -q TANDEM_BOOTSTRAP
        if test -r "$TANDEM_BOOTSTRAP"
            read -l __tandem_line <"$TANDEM_BOOTSTRAP"
            and set -g __tandem_nonce $__tandem_line
        end
        command rm -f -- "$TANDEM_BOOTSTRAP" 2>/dev/null
        command rmdir -- (string replace -r '/[^/]*$' '' -- "$TANDEM_BOOTSTRAP") 2>/dev/null
    end
    set -g __tandem_step_env "$TANDEM_STEP_ENV"
    # ssh carries the integration (tandem-ssh.fish); on a remote host, the private dir it came in.
    set -g __tandem_ssh_files "$TANDEM_SSH_STAGE0" "$TANDEM_SSH_DECIDE" "$TANDEM_SSH_PLAIN_HOSTS" "$TANDEM_SSH_VERDICTS"
    set -g __tandem_ssh_dir "$TANDEM_SSH_DIR"
    # The variables whose exported values go to Tandem with each prompt (__tandem_report_env).
    set -g __tandem_env_names (string split -n ' ' -- "$TANDEM_REPORT_ENV")
    for __tandem_var in (set --names | string match 'TANDEM_*')
        set -e $__tandem_var
    end
    set -e __tandem_var

    if not string match -qr '^[A-Za-z0-9_-]{8,128}$' -- "$__tandem_nonce"; or not status is-interactive
        set -e __tandem_nonce
    else
        set -g __tandem_ran 0

        function __tandem_on_postexec --on-event fish_postexec
            set -l last_status $status
            set -l fish_trace
            if test "$__tandem_ran" = 1
                printf '\e]133;D;%s;tandem=%s\a' $last_status $__tandem_nonce
            end
            set -g __tandem_ran 0
            __tandem_step_env_restore
        end

        # A plan step's environment (PAGER=cat ...): Tandem writes NAME=value lines to the
        # file just before it types the step; they are exported for that command line alone,
        # and the old values (or their absence) come back after it. The file is emptied once
        # read, in the shell itself (a `rm` would fork and exec before every step's command).
        function __tandem_step_env_apply
            test -n "$__tandem_step_env"; and test -s "$__tandem_step_env"; or return 0
            set -g __tandem_step_saved
            while read -l line
                set -l parts (string split -m1 = -- $line)
                string match -qr '^[A-Za-z_][A-Za-z0-9_]*$' -- $parts[1]; or continue
                if set -q $parts[1]
                    set -a __tandem_step_saved "$parts[1]=$$parts[1]"
                else
                    set -a __tandem_step_saved $parts[1]
                end
                set -gx $parts[1] "$parts[2]"
            end <$__tandem_step_env
            builtin true >$__tandem_step_env
        end

        function __tandem_step_env_restore
            set -q __tandem_step_saved[1]; or return 0
            for entry in $__tandem_step_saved
                set -l parts (string split -m1 = -- $entry)
                if set -q parts[2]
                    set -gx $parts[1] $parts[2]
                else
                    set -e $parts[1]
                end
            end
            set -e __tandem_step_saved
        end

        # The exported values of the variables Tandem asked for (`[context] include_env`),
        # for the model's standing context: one Tandem-private OSC 6973 before A, only when
        # one changed since the last report — `NAME=<percent-encoded value>`, or a bare
        # `NAME` for unset or not exported (a child process would not see it).
        function __tandem_report_env
            set -l fish_trace
            set -l report
            for name in $__tandem_env_names
                set -l state -
                set -qx $name; and set state "=$$name"
                set -l sent __tandem_env_sent_$name
                if not set -q $sent; or test "$$sent" != "$state"
                    set -g $sent $state
                    if test "$state" = -
                        set -a report $name
                    else
                        set -a report "$name="(string escape --style=url -- (string sub -s 2 -- "$state"))
                    end
                end
            end
            set -q report[1]; or return 0
            printf '\e]6973;env;tandem=%s;%s\a' $__tandem_nonce (string join ';' -- $report)
        end

        # Ctrl+C at the prompt (fish_cancel) and a syntax error (fish_posterror) redraw the
        # prompt without a fish_prompt event.
        function __tandem_on_prompt --on-event fish_prompt --on-event fish_cancel --on-event fish_posterror
            set -l fish_trace
            __tandem_report_env
            set -l cwd (string escape --style=url -- "$PWD")
            printf '\e]7;file://%s%s\a' "$hostname" $cwd
            printf '\e]133;A;tandem=%s;cwd=%s\a' $__tandem_nonce $cwd
            __tandem_wrap_prompt
        end

        function __tandem_on_preexec --on-event fish_preexec
            set -l fish_trace
            __tandem_step_env_apply
            set -l command_line (string escape --style=url -- "$argv[1]")
            set -l cwd (string escape --style=url -- "$PWD")
            printf '\e]133;C;tandem=%s;cmdline_url=%s;cwd=%s\a' $__tandem_nonce "$command_line" "$cwd"
            set -g __tandem_ran 1
        end

        function __tandem_prompt_end
            set -l fish_trace
            printf '\e]133;B;tandem=%s\a' $__tandem_nonce
        end

        function __tandem_wrap_prompt
            # fish_prompt may be autoloaded, defined in config.fish, or redefined later by a
            # theme or `fish_config`: wrap whatever is current, once.
            functions -q fish_prompt; or return
            string match -q '*__tandem_prompt_end*' -- (functions fish_prompt); and return
            # Where the prompt was defined, for a reload through this file (see its top).
            set -g __tandem_user_prompt_file (functions --details fish_prompt)
            test "$__tandem_user_prompt_file" = "$__tandem_own_file"; and set -g __tandem_user_prompt_file
            functions -e __tandem_user_prompt
            functions -c fish_prompt __tandem_user_prompt
            function fish_prompt --description 'The user prompt, then the OSC 133 B mark of Tandem'
                # $status here is still the last command's, and so it is for the user prompt.
                __tandem_user_prompt
                __tandem_prompt_end
            end
        end

        __tandem_wrap_prompt
        if test -n "$__tandem_ssh_files[1]"; and not functions -q ssh
            source (string replace -r '/[^/]*$' '' -- $__tandem_own_file)/tandem-ssh.fish
        end
    end
    # Everything of ours is read: the directory stage 1 unpacked us into goes (docs/ssh.md).
    test -n "$__tandem_ssh_dir"; and command rm -rf -- "$__tandem_ssh_dir"
    set -e __tandem_ssh_dir __tandem_ssh_files
end
