/**
 * The environment plan steps run with unless `[ai] steps_use_pager` is on: programs print
 * their output instead of holding it in a pager that waits for a key (`git log` with
 * git's `LESS=FRX`, `man`, `systemctl status`, `gh`, `aws`). The step's command line is
 * typed as it is; the shell integration exports these for that one command line (every
 * command in it: `a && b | c`) and puts the old values back before the next prompt.
 *
 * `LESS` is left alone: with the pager variables set, nothing starts `less` unless the
 * command names it (`less file`), and then the user asked for a pager.
 */
export const NO_PAGER_ENV: Readonly<Record<string, string>> = {
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  MANPAGER: 'cat',
  SYSTEMD_PAGER: 'cat',
  GH_PAGER: 'cat',
  // The AWS CLI turns its pager off with an empty value.
  AWS_PAGER: '',
};

/** The file the shell integration reads: one `NAME=value` a line. */
export function stepEnvFileText(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .filter(([name, value]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !/[\n\0]/.test(value))
    .map(([name, value]) => `${name}=${value}\n`)
    .join('');
}
