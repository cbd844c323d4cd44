/** The paths a command line runs against. All paths absolute and normalised. */
export interface PathContext {
  cwd: string;
  home: string;
  protectedPaths: string[];
  /** Every directory relative paths may be resolved against: the cwd, then each literal `cd` seen before. */
  cwds: string[];
  /** A `cd` to a directory known only at run time came before: relative paths may be anywhere. */
  cwdUnknown: boolean;
  /** The output of a `$( )` body when it is known before run time (`$(echo /)`, `$(pwd)`), without trailing newlines. */
  staticOutput?: (body: string) => string | undefined;
  /** GIT_PAGER is `cat` or empty where the command runs (an agent step's environment): no configured pager runs. */
  gitPagerOff?: boolean;
  /** Files written earlier on the line from credential files (`tar czf k.tgz ~/.ssh`), with what they hold. */
  credentialCopies: Map<string, string>;
  /** The command runs on this other host: this machine's files say nothing about it, and are never read for it. */
  remoteHost?: string;
}
