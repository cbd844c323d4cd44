# Tandem shell integration for bash: the hooks (sourced by tandem.bash before the user's
# startup files; see the marks and the rules for our variables described there). Only
# function definitions: nothing here runs until tandem.bash's __tandem_main installs them.

# Percent-encode $1 into __tandem_encoded: every byte outside 0x21..0x7e, and % and ;,
# becomes %XX. One substitution per distinct unsafe byte, not one step per character.
__tandem_percent_encode() {
  builtin local LC_ALL=C
  builtin local text="$1" unsafe byte hex
  text="${text//%/%25}"
  text="${text//;/%3B}"
  unsafe="${text//[[:graph:]]/}"
  while [[ -n "$unsafe" ]]; do
    byte="${unsafe:0:1}"
    builtin printf -v hex '%%%02X' "'$byte"
    text="${text//"$byte"/$hex}"
    unsafe="${unsafe//"$byte"/}"
  done
  __tandem_encoded="$text"
}

# A plan step's environment (PAGER=cat ...): Tandem writes NAME=value lines to the file just
# before it types the step; they are exported for that command line alone, and the old
# values (or their absence) come back before the next prompt. The file is emptied once read, in
# the shell itself (a `rm` would fork and exec before every step's command); Tandem removes it.
__tandem_step_env_apply() {
  [[ -n "$__tandem_step_env" && -s "$__tandem_step_env" ]] || return 0
  builtin local line name
  while IFS= builtin read -r line; do
    name="${line%%=*}"
    [[ "$name" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || continue
    if [[ -n "${!name+x}" ]]; then
      __tandem_step_saved+=("$name=${!name}")
    else
      __tandem_step_saved+=("$name")
    fi
    builtin export "$name=${line#*=}"
  done <"$__tandem_step_env"
  builtin : >|"$__tandem_step_env"
}

__tandem_step_env_restore() {
  (( ${#__tandem_step_saved[@]} > 0 )) || return 0
  builtin local entry
  for entry in "${__tandem_step_saved[@]}"; do
    if [[ "$entry" == *=* ]]; then
      builtin export "$entry"
    else
      builtin unset -v "$entry"
    fi
  done
  __tandem_step_saved=()
}

# The exported values of the variables Tandem asked for (`[context] include_env`), for the
# model's standing context: one Tandem-private OSC 6973 before A, only when one changed since
# the last report — `NAME=<percent-encoded value>`, or a bare `NAME` for unset or not
# exported (a child process would not see it).
__tandem_report_env() {
  builtin local name report= state
  builtin local -i i=0
  for name in "${__tandem_env_names[@]}"; do
    state=-
    [[ -n "${!name+x}" && "${!name@a}" == *x* ]] && state="=${!name}"
    if [[ "${__tandem_env_sent[i]-}" != "$state" ]]; then
      __tandem_env_sent[i]="$state"
      if [[ "$state" == =* ]]; then
        __tandem_percent_encode "${state#=}"
        report+=";$name=$__tandem_encoded"
      else
        report+=";$name"
      fi
    fi
    i+=1
  done
  [[ -z "$report" ]] || builtin printf '\e]6973;env;tandem=%s%s\a' "$__tandem_nonce" "$report"
}

# The right side of each PROMPT_COMMAND entry's `&&` (see __tandem_hook_prompt_command).
__tandem_continue() {
  return 0
}

__tandem_set_status() {
  # Sets $? to $1 and, being a command whose last argument is $2, $_ to $2.
  return "${1:-0}"
}

# First in PROMPT_COMMAND: sees the command's status, reports D and the cwd (OSC 7 for
# other tools; the A mark in PS1, which only we can print, carries it for Tandem).
__tandem_precmd() {
  { __tandem_last_status="$?"; builtin local -; builtin set +aeuvx; } 2>/dev/null
  if [[ "${__tandem_ran-}" == 1 ]]; then
    builtin printf '\e]133;D;%s;tandem=%s\a' "$__tandem_last_status" "$__tandem_nonce"
  fi
  __tandem_step_env_restore
  __tandem_ran=0
  __tandem_typed_url=
  __tandem_typed_lines=0
  __tandem_c_tail=
  __tandem_histcmd="${HISTCMD-0}"
  __tandem_report_env
  __tandem_percent_encode "$PWD"
  builtin printf '\e]7;file://%s%s\a' "${HOSTNAME-}" "$__tandem_encoded"
  # readline re-prints PS1 (and this mark) when it redraws the line; the sequence number
  # tells Tandem a redraw from a new prompt.
  __tandem_prompt_seq=$(( ${__tandem_prompt_seq:-0} + 1 ))
  __tandem_mark_a=$'\e]133;A;tandem='"$__tandem_nonce;cwd=$__tandem_encoded;prompt=$__tandem_prompt_seq"$'\a'
  if [[ "${PROMPT_COMMAND[*]-}" != "${__tandem_seen_prompt_command-}" ]]; then
    # Something rewrote PROMPT_COMMAND (bash-preexec does, on its first prompt; tools that
    # do usually install a DEBUG trap too): have the prompt fix-up look at the trap again.
    __tandem_seen_prompt_command="${PROMPT_COMMAND[*]-}"
    __tandem_check_trap=1
  fi
  return "$__tandem_last_status"
}

# Last in PROMPT_COMMAND: after prompt frameworks (starship, oh-my-bash, a PROMPT_COMMAND
# that rebuilds PS1) have done their work, make sure A/B frame PS1 and C sits in PS0.
# $1, when given, is `trap -p DEBUG` as seen at top level (a function cannot see it).
__tandem_prompt_fix() {
  { builtin local -; builtin set +aeuvx; } 2>/dev/null
  builtin local a b
  if builtin shopt -q promptvars; then
    # Indirect, so the nonce is not in PS1's text (which some people export), and the
    # cwd in A is not subject to prompt decoding. Expanding PS1 also sets __tandem_fresh
    # (an arithmetic side effect in the shell itself): bash expands PS1 again, without
    # running PROMPT_COMMAND, after it rejected a line (`!x: event not found`, histverify,
    # histreedit), and the next line typed is then a new command, not a continuation.
    a='\[${__tandem_mark_a-}${__tandem_nil[__tandem_fresh=1]-}\]'
    b='\[${__tandem_mark_b-}\]'
  else
    # Direct: backslashes (the cwd may hold some) are prompt escapes here. The nonce is
    # then in PS1's text, so PS1 must not be exported (only `set -a` would have done so).
    a="\\[${__tandem_mark_a//\\/\\\\}\\]"
    b="\\[$__tandem_mark_b\\]"
    [[ "${PS1@a}" != *x* ]] || builtin export -n PS1
  fi
  if [[ "$PS1" != "$a"* || "$PS1" != *"$b" ]]; then
    # The A of the previous prompt differs from this one's in direct mode (the cwd).
    [[ -z "${__tandem_ps1_a-}" ]] || PS1="${PS1//"$__tandem_ps1_a"/}"
    PS1="${PS1//"$a"/}"
    PS1="${PS1//"$b"/}"
    PS1="$a$PS1$b"
  fi
  __tandem_ps1_a="$a"
  if builtin shopt -q promptvars; then
    [[ "${PS0-}" == *"$__tandem_ps0"* ]] || PS0="${PS0-}$__tandem_ps0"
  elif [[ "${PS0-}" == *"$__tandem_ps0"* ]]; then
    # Not expanded without promptvars: it would be printed as it is. No C then.
    PS0="${PS0//"$__tandem_ps0"/}"
  fi
  if (( $# > 0 )); then
    __tandem_check_trap=
    __tandem_wrap_debug_trap "$1"
  fi
  return "${__tandem_last_status:-0}"
}

# Runs in PS0's command substitution (a subshell) when no line was captured (line editing
# off, Enter rebound): prints C with the history entry, if the command was saved at all.
# With a captured line, PS0 prints the C the capture prepared, without a subshell.
__tandem_command_start() {
  { builtin local -; builtin set +aeuvx; } 2>/dev/null
  builtin local command=
  if (( ${HISTCMD:-0} > ${__tandem_histcmd:-0} )); then
    command="$(HISTTIMEFORMAT= builtin history 1)"
    [[ "$command" =~ ^\ *[0-9]+[\*\ ]\ (.*)$ ]] && command="${BASH_REMATCH[1]}"
  fi
  __tandem_percent_encode "$command"
  command="$__tandem_encoded"
  __tandem_percent_encode "$PWD"
  builtin printf '\e]133;C;tandem=%s;cmdline_url=%s;cwd=%s\a' "$__tandem_nonce" "$command" "$__tandem_encoded"
}

# Bound (bind -x) to the first half of the Enter macro: records each physical line.
__tandem_line_capture() {
  { builtin local -; builtin set +aeuvx; } 2>/dev/null
  if [[ "${__tandem_ran-}" == 1 ]]; then
    # A command ran and no prompt hook of ours followed: the user re-read a startup file
    # that reassigned PROMPT_COMMAND (`source ~/.bashrc`). Start this command afresh and
    # put the hooks back; the previous block ends, without a status, at this one's C.
    __tandem_ran=0
    __tandem_typed_url=
    __tandem_typed_lines=0
    __tandem_hook_prompt_command
  fi
  if [[ "${__tandem_fresh-}" == 1 ]]; then
    # The first line at a PS1: whatever an earlier line at a PS1 left here was rejected
    # before it ran (no C, no D, no PROMPT_COMMAND), so it belongs to no command.
    __tandem_fresh=0
    __tandem_typed_url=
    __tandem_typed_lines=0
    __tandem_step_env_restore
  fi
  if (( __tandem_typed_lines++ > 0 )); then
    __tandem_typed_url+=%0A
  else
    __tandem_step_env_apply
  fi
  # C is ready before PS0 needs it (a command substitution there would fork for every
  # command): PS0 joins __tandem_c_head, the encoded line and __tandem_c_tail. Each line is
  # encoded once and C is never copied whole here, so a long multi-line command costs no
  # more than encoding it.
  __tandem_percent_encode "$READLINE_LINE"
  __tandem_typed_url+="$__tandem_encoded"
  __tandem_percent_encode "$PWD"
  __tandem_c_tail=";cwd=$__tandem_encoded"$'\a'
}

# The user's DEBUG trap would otherwise also fire for our PROMPT_COMMAND entries and for
# the bind -x call on every Enter (bash-preexec would take that for the user's command).
# We own the trap and run the user's for everything else, with $? and $_ intact.
#
# The trap is `{ __tandem_debug_trap "$_"; } 19>&2 2>/dev/null`: our part is not traced
# under `set -x`; the user's trap runs with their options and their stderr (fd 19 there),
# so it is traced, and prints, exactly as without us.
__tandem_debug_trap() {
  { __tandem_debug_status="$?"; __tandem_debug_flags="$-"; builtin local -; builtin set +aeuvx; } 2>/dev/null
  case "${FUNCNAME[1]-}" in __tandem_*) return 0 ;; esac
  case "${BASH_COMMAND-}" in __tandem_* | '${__tandem_nonce:+__tandem_'*) return 0 ;; esac
  __tandem_debug_flags="${__tandem_debug_flags//[!aeuvx]/}"
  [[ -z "$__tandem_debug_flags" ]] || builtin set "-$__tandem_debug_flags"
  __tandem_set_status "$__tandem_debug_status" "${1-}"
  builtin eval -- "$__tandem_debug_chain" 2>&19 19>&-
}

# $1 is the output of `trap -p DEBUG` (taken at top level by the caller's caller).
__tandem_wrap_debug_trap() {
  [[ -n "${1-}" ]] || return 0
  builtin eval "builtin set -- $1"
  # $1=trap $2=-- $3=the command $4=DEBUG
  [[ "${3-}" == "$__tandem_trap" ]] && return 0
  __tandem_debug_chain="${3-}"
  builtin trap -- "$__tandem_trap" DEBUG
  if [[ "$__tandem_debug_chain" == *__bp_preexec_invoke_exec* ]] && builtin declare -F __bp_interactive_mode >/dev/null; then
    # bash-preexec installed itself on this prompt, partway through PROMPT_COMMAND, and set
    # its "a prompt was just shown" flag; its trap, not yet wrapped, then saw our entry
    # (as a PROMPT_COMMAND entry: no preexec call) and cleared the flag. Set it again, as
    # its own last entry would have. `force`: bash-preexec since 2026 ignores a call from
    # inside a function without it; older releases ignore the argument.
    __bp_interactive_mode force
  fi
}

__tandem_bind_enter() {
  # No line editing, or a line editor that replaces readline: keep the history fallback.
  [[ -o emacs || -o vi ]] || return 0
  [[ -z "${BLE_VERSION-}" ]] || return 0
  builtin local keymap key bound
  for keymap in emacs vi-insert vi-command; do
    bound="$(builtin bind -m "$keymap" -q accept-line 2>/dev/null)"
    [[ "$bound" == *'"\C-m"'* || "$bound" == *'"\C-j"'* ]] || continue
    # The leading newline: while bash reads a continuation line, the parser state it
    # restores for `bind -x` would otherwise not take `{` as a reserved word. "$_" as the
    # last argument: a `bind -x` command sets $_ like any command, and the user's next
    # command line must still see the previous one's last argument (`mkdir d` / `cd $_`).
    builtin bind -m "$keymap" -x $'"\\e[8885~": \n{ __tandem_line_capture "$_"; } 2>/dev/null' 2>/dev/null || continue
    builtin bind -m "$keymap" '"\e[8886~": accept-line'
    for key in '\C-m' '\C-j'; do
      # Only keys that are plain accept-line; a user's own binding stays.
      [[ "$bound" == *"\"$key\""* ]] && builtin bind -m "$keymap" "\"$key\": \"\\e[8885~\\e[8886~\""
    done
  done
}

# Our entries go first and last in PROMPT_COMMAND (string or array, as the user has it).
# They expand to nothing where __tandem_nonce is unset: a nested bash that inherits an
# exported PROMPT_COMMAND does not run (or miss) them.
#
# An entry is `{ call } 2>/dev/null && { __tandem_continue } 2>/dev/null` over five lines.
# Each call has a line of its own, exactly what a DEBUG trap sees as BASH_COMMAND: that is
# how bash-preexec (and tools like it) tell a PROMPT_COMMAND entry from a command the user
# typed. The entries hand the command's status on to the user's entries; as the left side
# of `&&`, a failed status does not fire the user's ERR trap again (not even under `set -E`).
__tandem_hook_prompt_command() {
  builtin local continue=$' && {\n${__tandem_nonce:+__tandem_continue}\n} 2>/dev/null'
  builtin local first=$'{\n${__tandem_nonce:+__tandem_precmd}\n} 2>/dev/null'"$continue"
  builtin local last=$'{\n${__tandem_nonce:+__tandem_prompt_fix ${__tandem_check_trap:+"$(trap -p DEBUG)"}}\n} 2>/dev/null'"$continue"
  if [[ "${PROMPT_COMMAND@a}" == *a* ]]; then
    builtin local entry
    builtin local -a entries
    for entry in "${PROMPT_COMMAND[@]}"; do
      # bash-preexec joins its first entry and ours into one element.
      entry="${entry//"$first"/}"
      entry="${entry//"$last"/}"
      while [[ "$entry" == $'\n'* ]]; do entry="${entry#$'\n'}"; done
      while [[ "$entry" == *$'\n' ]]; do entry="${entry%$'\n'}"; done
      [[ -z "$entry" ]] || entries+=("$entry")
    done
    PROMPT_COMMAND=("$first" "${entries[@]}" "$last")
  else
    builtin local text="${PROMPT_COMMAND-}"
    text="${text//"$first"$'\n'/}"
    text="${text//$'\n'"$last"/}"
    if [[ -n "$text" ]]; then
      PROMPT_COMMAND="$first"$'\n'"$text"$'\n'"$last"
    else
      PROMPT_COMMAND="$first"$'\n'"$last"
    fi
  fi
  __tandem_seen_prompt_command="${PROMPT_COMMAND[*]}"
  __tandem_check_trap=1
}

__tandem_install() {
  { builtin local -; builtin set +aeuvx; } 2>/dev/null
  __tandem_percent_encode "$PWD"
  __tandem_mark_a=$'\e]133;A;tandem='"$__tandem_nonce;cwd=$__tandem_encoded"$'\a'
  __tandem_mark_b=$'\e]133;B;tandem='"$__tandem_nonce"$'\a'
  # PS0 is expanded before each command read — several times for one multi-line paste,
  # with no prompt in between. Only the first prints C: __tandem_once has an element 1 but
  # none 0, so `${__tandem_once[__tandem_ran]-…}` expands only while __tandem_ran is 0. The
  # arithmetic subscript then sets __tandem_ran=1 in the shell itself. C is the one the line
  # capture prepared — its head and command line, then its tail, which is set only then and
  # is what `:-` yields — or, without one, a command substitution's (a subshell). All of it only where our nonce exists: a nested bash that inherits an
  # exported PS0 stays quiet.
  __tandem_once=([1]=)
  __tandem_c_head=$'\e]133;C;tandem='"$__tandem_nonce;cmdline_url="
  __tandem_ps0='${__tandem_nonce:+${__tandem_once[__tandem_ran]-${__tandem_c_tail:+$__tandem_c_head$__tandem_typed_url}${__tandem_c_tail:-$({ __tandem_command_start; } 2>/dev/null)}}${__tandem_nil[__tandem_ran=1]-}}'
  __tandem_ran=0
  __tandem_typed_url=
  __tandem_typed_lines=0
  __tandem_c_tail=
  __tandem_histcmd="${HISTCMD-0}"

  __tandem_hook_prompt_command

  # bash-preexec installs its DEBUG trap at the first prompt and turns whatever trap it
  # finds into a preexec function; let it, and wrap its trap afterwards (the first prompt
  # always checks).
  if [[ "${PROMPT_COMMAND[*]}" != *__bp_install* ]]; then
    __tandem_wrap_debug_trap "${1-}"
  fi
  __tandem_seen_prompt_command="${PROMPT_COMMAND[*]}"
  __tandem_check_trap=1
  __tandem_last_status=0
  __tandem_bind_enter
}
