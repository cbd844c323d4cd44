/**
 * What may be typed after `ssh ` at a shell prompt on the user's behalf: one word that ssh
 * reads as a destination (`host`, `user@host`, `ssh://user@host:port`), never an option and
 * never a second word, so a name chosen or typed in a picker cannot add anything to the command.
 */
const MAX_DESTINATION_LENGTH = 1_024;

/** Why `text` is not a destination, or undefined when it is one. */
export function destinationProblem(text: string): string | undefined {
  if (text === '') return 'a destination is needed (a host, or user@host)';
  if (text.length > MAX_DESTINATION_LENGTH) return `a destination is at most ${MAX_DESTINATION_LENGTH} characters`;
  if (/[\s\x00-\x1f\x7f]/.test(text)) return 'a destination is one word, without spaces or control characters';
  if (text.startsWith('-')) return 'a destination cannot start with "-" (ssh would read it as an option)';
  return undefined;
}

/** Words every shell (sh, bash, zsh, fish) takes literally without quotes. */
const PLAIN_WORD = /^[A-Za-z0-9@+:,./_-][A-Za-z0-9@+=:,./_-]*$/;

/**
 * `word` quoted so that sh, bash, zsh and fish all read it back unchanged: as is when it is
 * plain, else in single quotes. `'` and `\` are written outside the quotes, escaped (`'\''`,
 * `'\\'`), since fish, unlike sh, reads a backslash inside single quotes as an escape.
 */
export function shellQuote(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replace(/['\\]/g, (char) => `'\\${char}'`)}'`;
}

/** The command line typed at the prompt: `ssh` and its arguments, each quoted. */
export function sshCommandLine(args: readonly string[]): string {
  return ['ssh', ...args.map(shellQuote)].join(' ');
}
