# Tandem: stub, sources the user's .zshrc, then installs the hooks after it (see .zshenv
# in this directory).
__tandem_enter_user .zshrc
[[ -z "$__tandem_file" ]] || builtin source -- "$__tandem_file"
__tandem_leave_user
if [[ -n "${__tandem_nonce-}" && -o interactive ]]; then
  builtin source -- "$__tandem_zdotdir/tandem-integration.zsh"
else
  builtin unset __tandem_nonce
fi
[[ -o login ]] || __tandem_finish
