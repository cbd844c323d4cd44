# Tandem: stub, sources the user's .zlogin, then leaves the user's ZDOTDIR in place (see
# .zshenv in this directory).
__tandem_enter_user .zlogin
[[ -z "$__tandem_file" ]] || builtin source -- "$__tandem_file"
{ __tandem_finish } 2>/dev/null
