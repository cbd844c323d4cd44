/** The types of a command's risk classification (commandRisk.ts), in a module of their own so the rules can import them without a cycle. */
export type RiskLevel = 'green' | 'yellow' | 'red';

export interface ClassifiedPart {
  command: string;
  flags: string[];
  writes: string[];
  /** Protected paths (absolute, as given in the context) this part would change. */
  protectedHits: string[];
  /** The command's words (literal arguments by value; others as written). */
  words: string[];
  level: RiskLevel;
  reason: string;
  /**
   * Set when another command of the line runs this one (`sh -c`'s body, `vim -c '!…'`, `sudo`'s
   * command, `python -c "os.system('…')"`): what runs it. A policy allow pattern that covers the
   * line must allow this part on its own too.
   */
  carriedBy?: string;
}

/** Another host a step runs on (the pane's shell reached with `ssh`): what it says about itself, a label. */
export interface RemoteHost {
  host: string;
  user?: string;
  /** The remote user's home as the remote reported it (`$HOME`). */
  home?: string;
}

export interface RiskContext {
  /** On a remote host: the directory there. */
  cwd: string;
  home: string;
  protectedPaths: string[];
  /** Variables the command runs with besides the shell's own (an agent step's, which turn pagers off). */
  environment?: Readonly<Record<string, string>>;
  /**
   * The command runs on this other host: no rule reads this machine's files for it (git config,
   * hooks, project files); what would depend on them is at least YELLOW, with a reason naming the host.
   */
  remote?: RemoteHost;
}

export interface RiskResult {
  level: RiskLevel;
  reasons: string[];
  parts: ClassifiedPart[];
  /**
   * The level depends on files read while classifying (a repository's git config, hooks): a result
   * kept from earlier (a plan step classified when it was proposed) must be classified again before
   * it decides anything, since an earlier step may have changed those files.
   */
  readsFiles?: boolean;
  /** Classified for a step on this other host (RiskContext.remote); a result for another place is not reused. */
  host?: string;
}
