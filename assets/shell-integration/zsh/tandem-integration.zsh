# Tandem shell integration for zsh: the hooks. Sourced by the .zshrc stub after the
# user's .zshrc, so frameworks (oh-my-zsh, powerlevel10k, starship, pure) are loaded.
#
#   __tandem_precmd      first in precmd_functions: D;<status> (only after a command ran)
#                        and OSC 7 with the cwd
#   __tandem_prompt_fix  A at the start of PS1 and B at its end, inside %{ %}, re-added
#                        whenever a theme rebuilt PS1. It must run after every precmd hook
#                        (they build the prompt): as the last precmd hook while it is last,
#                        and through `sched +0` (zsh/sched runs it after all precmd hooks,
#                        before the prompt is drawn) once a framework insists on the last
#                        place itself, as powerlevel10k does on every prompt. Tandem never
#                        fights a framework for that place.
#   __tandem_preexec     last in preexec_functions: C with the command line exactly as
#                        typed ($1 of preexec: continuation lines, leading space and all)
#                        and the cwd the command starts in
#
# The A mark carries the cwd (cwd=<percent-encoded>), which the tracker trusts; OSC 7 is
# still sent for other tools. Each hook starts with `{ emulate -L zsh -o no_xtrace …; }
# 2>/dev/null`, so a user's `setopt xtrace` traces none of our code (nor the nonce), and
# allexport (off in zsh emulation) exports nothing of ours.

__tandem_percent_encode() {
  # Every byte outside 0x21..0x7e, and % and ;, becomes %XX; one pass, in C.
  builtin emulate -L zsh -o extended_glob -o no_multibyte
  REPLY="${1//(#m)[^\!-\$\&-\:\<-\~]/%${(l:2::0:)$(( [##16] #MATCH ))}}"
}

__tandem_precmd() {
  # $? and $pipestatus in one command (any command before would reset $pipestatus); the
  # reserved word `local`, as `builtin local` cannot assign an array.
  { local __tandem_status=$? __tandem_pipestatus=($pipestatus); builtin emulate -L zsh -o no_warn_create_global -o no_xtrace -o no_verbose -o no_all_export; } 2>/dev/null
  builtin local REPLY
  __tandem_percent_encode "$PWD"
  # For PS1, where `%` (and `!` under prompt_bang) are prompt escapes: %% and %%21.
  builtin local cwd="${${REPLY//\%/%%}//\!/%%21}"
  # Some plugins call precmd hooks from a zle widget to redraw the prompt (fzf's Alt+C
  # after a cd); the cursor is then inside the command line and nothing can be printed.
  # The redraw re-expands PS1, so A still tells Tandem the new cwd (same prompt number).
  if builtin zle; then
    __tandem_mark_a=$'\e]133;A;tandem='"$__tandem_nonce;cwd=$cwd;prompt=$__tandem_prompt_seq"$'\a'
  else
    if (( __tandem_ran )); then
      builtin print -rn -- $'\e]133;D;'"$__tandem_status;tandem=$__tandem_nonce"$'\a'
    fi
    __tandem_report_env
    builtin print -rn -- $'\e]7;file://'"${HOST-}$REPLY"$'\a'
    # zle re-prints PS1 (and this mark) when it redraws the line; the sequence number tells
    # Tandem a redraw from a new prompt.
    __tandem_prompt_seq=$(( __tandem_prompt_seq + 1 ))
    __tandem_mark_a=$'\e]133;A;tandem='"$__tandem_nonce;cwd=$cwd;prompt=$__tandem_prompt_seq"$'\a'
    __tandem_last_status=$__tandem_status
    # zsh runs the precmd hooks of a copy of the array taken before the first one, so
    # whether our fix-up is last this time is decided now (we are first).
    if [[ "${precmd_functions[-1]-}" == __tandem_prompt_fix ]] || (( ! __tandem_can_defer )); then
      __tandem_fix_deferred=0
    else
      __tandem_fix_deferred=1
      __tandem_defer_prompt_fix "$__tandem_status" "${__tandem_pipestatus[@]}"
    fi
  fi
  __tandem_ran=0
  __tandem_step_env_restore
  # Each hook hands the status on (for plugins that call the hooks themselves); as the left
  # side of `&&`, a failed status does not fire the user's ZERR trap again.
  return __tandem_status && :
}

# The exported values of the variables Tandem asked for (`[context] include_env`), for the
# model's standing context: one Tandem-private OSC 6973 before A, only when one changed since
# the last report — `NAME=<percent-encoded value>`, or a bare `NAME` for unset or not
# exported (a child process would not see it).
__tandem_report_env() {
  (( ${#__tandem_env_names} )) || return 0
  builtin local name state report= REPLY
  for name in $__tandem_env_names; do
    state=-
    [[ ${parameters[$name]-} == *export* ]] && state="=${(P)name}"
    if [[ "${__tandem_env_sent[$name]-}" != "$state" ]]; then
      __tandem_env_sent[$name]=$state
      if [[ $state == "="* ]]; then
        __tandem_percent_encode "${state#=}"
        report+=";$name=$REPLY"
      else
        report+=";$name"
      fi
    fi
  done
  [[ -z $report ]] || builtin print -rn -- $'\e]6973;env;tandem='"$__tandem_nonce$report"$'\a'
}

# Schedules the prompt fix-up after every precmd hook (zsh/sched runs "now" entries once
# precmd is done, before the prompt is drawn). A scheduled command is an ordinary command
# line, so it must leave $?, $pipestatus and $_ exactly as the user's command left them,
# and must not fire the user's ZERR trap a second time: it is our function returning the
# status with "$_" as its last argument (after a pipeline, a pipeline with the same
# statuses: one short subshell per extra stage), then `&& [[ -n . ]]` — a failed status
# skips it, which ends the list without ZERR; after success it changes neither $_ nor
# $pipestatus.
__tandem_defer_prompt_fix() {
  builtin local command='__tandem_deferred_prompt_fix '"$1"' "$_" && [[ -n . ]]' stage_status
  builtin local -i i
  # An entry left from a prompt that never got that far (a precmd hook failed) goes.
  for (( i = ${#zsh_scheduled_events}; i > 0; i-- )); do
    [[ "${zsh_scheduled_events[i]}" != *:__tandem_(deferred_prompt_fix|return)\ * ]] || builtin sched -$i
  done
  if (( $# > 2 )); then
    command=
    for stage_status in "${@[2,-2]}"; do
      command+="__tandem_return $stage_status | "
    done
    command+='__tandem_deferred_prompt_fix '"${@[-1]}"' "$_" && [[ -n . ]]'
  fi
  builtin sched +0 "$command"
}

__tandem_return() {
  return ${1:-0} && :
}

__tandem_deferred_prompt_fix() {
  { builtin emulate -L zsh -o no_warn_create_global -o no_xtrace -o no_verbose -o no_all_export; } 2>/dev/null
  __tandem_fix_deferred=0
  __tandem_apply_prompt_marks
  return ${1:-0} && :
}

# The last precmd hook, while it is last; once another hook took that place, the scheduled
# call does the work and this one does nothing.
__tandem_prompt_fix() {
  { builtin local -i __tandem_status=$?; builtin emulate -L zsh -o no_warn_create_global -o no_xtrace -o no_verbose -o no_all_export; } 2>/dev/null
  (( __tandem_fix_deferred )) || __tandem_apply_prompt_marks
  return __tandem_status && :
}

# A at the start of PS1 and B at its end, unless they are there already.
__tandem_apply_prompt_marks() {
  builtin local direct_a="%{$__tandem_mark_a%}" direct_b="%{$__tandem_mark_b%}"
  builtin local indirect_a='%{${__tandem_mark_a-}%}' indirect_b='%{${__tandem_mark_b-}%}'
  builtin local a=$direct_a b=$direct_b
  if [[ -o prompt_subst ]]; then
    # Indirect, so the nonce is not in PS1's text (which some people export).
    a=$indirect_a
    b=$indirect_b
  elif [[ ${(t)PS1} == *export* ]]; then
    # Direct: the nonce is in PS1's text, which must then not reach child processes.
    builtin typeset +x PS1
  fi
  if [[ "$PS1" != "$a"* || "$PS1" != *"$b" ]]; then
    # In direct mode the previous prompt's A (another cwd) differs from this one's.
    [[ -z "$__tandem_ps1_a" ]] || PS1="${PS1//"$__tandem_ps1_a"/}"
    PS1="${${${${PS1//"$direct_a"/}//"$direct_b"/}//"$indirect_a"/}//"$indirect_b"/}"
    PS1="$a$PS1$b"
  fi
  __tandem_ps1_a=$a
}

# A plan step's environment (PAGER=cat ...): Tandem writes NAME=value lines to the file just
# before it types the step; they are exported for that command line alone, and the old
# values (or their absence) come back before the next prompt. The file is emptied once read, in
# the shell itself (a `rm` would fork and exec before every step's command); Tandem removes it.
__tandem_step_env_apply() {
  [[ -n "${__tandem_step_env-}" && -s "$__tandem_step_env" ]] || return 0
  builtin local line name
  while IFS= builtin read -r line; do
    name="${line%%=*}"
    [[ "$name" =~ '^[A-Za-z_][A-Za-z0-9_]*$' ]] || continue
    if (( ${+parameters[$name]} )); then
      __tandem_step_saved+=("$name=${(P)name}")
    else
      __tandem_step_saved+=("$name")
    fi
    builtin export "$name=${line#*=}"
  done <"$__tandem_step_env"
  builtin : >|"$__tandem_step_env"
}

__tandem_step_env_restore() {
  (( ${#__tandem_step_saved} > 0 )) || return 0
  builtin local entry
  for entry in "${__tandem_step_saved[@]}"; do
    if [[ "$entry" == *=* ]]; then
      builtin export "$entry"
    else
      builtin unset "$entry"
    fi
  done
  __tandem_step_saved=()
}

__tandem_preexec() {
  { builtin emulate -L zsh -o no_warn_create_global -o no_xtrace -o no_verbose -o no_all_export; } 2>/dev/null
  __tandem_step_env_apply
  builtin local REPLY command_line
  # $1 is the line as typed while history is active; $3 the expanded text otherwise.
  __tandem_percent_encode "${1:-${3-}}"
  command_line=$REPLY
  __tandem_percent_encode "$PWD"
  builtin print -rn -- $'\e]133;C;tandem='"$__tandem_nonce;cmdline_url=$command_line;cwd=$REPLY"$'\a'
  __tandem_ran=1
}

# Runs each time the line editor starts. If our hooks are gone — the user re-read a
# .zshrc that assigns precmd_functions (`source ~/.zshrc`) — put them back; the block of
# that command then ends, without a status, at the next one's C.
__tandem_line_init() {
  { builtin emulate -L zsh -o no_warn_create_global -o no_xtrace -o no_verbose -o no_all_export; } 2>/dev/null
  if (( ! __tandem_ran && ${precmd_functions[(Ie)__tandem_precmd]} && ${preexec_functions[(Ie)__tandem_preexec]} )); then
    return 0
  fi
  __tandem_ran=0
  __tandem_hook
}

# zsh marks a partial last line before each prompt (PROMPT_SP: an inverted % or # and a
# line of spaces, erased again when the line was empty). At the first prompt the terminal's
# width may not be final — a new pane is spawned at an estimated size until the window has
# laid it out — and a mark wider than the terminal wraps, leaving a `#` row at the top of a
# fresh pane. So the first prompt goes without it: the .zshrc stub turns PROMPT_SP off at
# top level (options set in our hooks are local to them), and this one-shot hook turns it
# on again, so every prompt after a command marks the user's unterminated output as usual.
__tandem_first_prompt() {
  { builtin setopt prompt_sp; precmd_functions=(${precmd_functions:#__tandem_first_prompt}); builtin unfunction __tandem_first_prompt; } 2>/dev/null
}

__tandem_hook() {
  builtin typeset -ga precmd_functions preexec_functions
  precmd_functions=(__tandem_precmd ${precmd_functions:#__tandem_*} __tandem_prompt_fix)
  preexec_functions=(${preexec_functions:#__tandem_*} __tandem_preexec)
}

() {
  { builtin emulate -L zsh -o no_warn_create_global -o no_xtrace -o no_verbose -o no_all_export; } 2>/dev/null
  builtin local REPLY
  __tandem_percent_encode "$PWD"
  builtin typeset -g __tandem_mark_a=$'\e]133;A;tandem='"$__tandem_nonce;cwd=${${REPLY//\%/%%}//\!/%%21}"$'\a'
  builtin typeset -g __tandem_ps1_a=
  builtin typeset -g __tandem_mark_b=$'\e]133;B;tandem='"$__tandem_nonce"$'\a'
  builtin typeset -gi __tandem_ran=0
  builtin typeset -gi __tandem_prompt_seq=0
  builtin typeset -gi __tandem_fix_deferred=0
  builtin typeset -gA __tandem_env_sent
  # zsh/sched runs "now" entries after all precmd hooks: the prompt fix-up's way to come
  # after a framework that takes the last precmd place (powerlevel10k does).
  builtin typeset -gi __tandem_can_defer=0
  builtin zmodload zsh/sched 2>/dev/null && __tandem_can_defer=1
  __tandem_hook
  # add-zle-hook-widget (zsh 5.3+) chains with the user's own zle-line-init.
  if builtin autoload -Uz add-zle-hook-widget 2>/dev/null; then
    builtin zle -N __tandem_line_init
    add-zle-hook-widget line-init __tandem_line_init 2>/dev/null
  fi
}

