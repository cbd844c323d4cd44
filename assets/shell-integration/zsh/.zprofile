# Tandem: stub, sources the user's .zprofile (see .zshenv in this directory).
__tandem_enter_user .zprofile
[[ -z "$__tandem_file" ]] || builtin source -- "$__tandem_file"
{ __tandem_leave_user } 2>/dev/null
