# Tandem: stub, sources the user's .zshrc, then installs the hooks after it (see .zshenv
# in this directory).
__tandem_enter_user .zshrc
[[ -z "$__tandem_file" ]] || builtin source -- "$__tandem_file"
{ __tandem_after_zshrc } 2>/dev/null
# The first prompt without PROMPT_SP's mark (see __tandem_first_prompt); here, at top level, so it lasts.
{ [[ -o prompt_sp ]] && (( ${+functions[__tandem_first_prompt]} )) && builtin unsetopt prompt_sp && precmd_functions=(__tandem_first_prompt $precmd_functions) } 2>/dev/null
