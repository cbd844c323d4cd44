# Tandem: stub, sources the user's .zshrc, then installs the hooks after it (see .zshenv
# in this directory).
__tandem_enter_user .zshrc
[[ -z "$__tandem_file" ]] || builtin source -- "$__tandem_file"
{ __tandem_after_zshrc } 2>/dev/null
