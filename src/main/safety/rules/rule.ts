/** What a rule is: the command it sees (an Invocation), the paths it runs against, and what it may ask of the classifier. */
import type { RiskLevel } from '../riskTypes';
import type { Word } from '../shellParser';
import type { Arg } from './arguments';
import type { PathContext } from './pathContext';
import type { Verdict } from './verdict';

/** What a command reads on its standard input, as far as the parse can tell. */
export type StdinSource =
  /** The terminal (or nothing known): an interactive program. */
  | { kind: 'terminal' }
  /** A file (`< f`). */
  | { kind: 'file'; path: string; word?: Word }
  /**
   * Another command's output. `download`: a network fetch feeds it. `text`: the exact text, when
   * known. `credential`: an earlier stage reads a credential file (`cat ~/.ssh/id_rsa | …`).
   */
  | { kind: 'pipe'; download: boolean; text?: string; decoded?: boolean; from: string; credential?: string };

/** One command for the rules: its name (a basename when it was a path in a system bin dir) and arguments. */
export interface Invocation {
  name: string;
  args: Arg[];
  stdin: StdinSource;
}

/** What rules may ask of the classifier: nested commands (sh -c, sudo, xargs, find -exec …). */
export interface RuleEnv {
  paths: PathContext;
  /**
   * Classify shell source run by this command; returns the worst level found in it. `fromConfig`:
   * the source comes from a configuration file (git's pager), not from the command line itself.
   */
  nestedSource(source: string, via: string, options?: { fromConfig?: boolean }): RiskLevel;
  /** Classify an argument vector run by this command (argv[0] is the command). */
  nestedArgv(argv: Arg[], via: string, stdin?: StdinSource): RiskLevel;
  /**
   * Code this command runs that Tandem cannot judge (`vim -S script.vim`, `perl -e 'system $cmd'`):
   * a YELLOW part of its own, carried by the command, so no allow pattern for the line covers it.
   */
  unjudgedCode(via: string, code: string, reason: string): void;
  /** Records that the verdict depends on files read now (git's config): see RiskResult.readsFiles. */
  readsFiles?(): void;
  /** Whether the word contains a `$( )` / `<( )` whose body fetches from the network. */
  fetchesCode(word: Word): boolean;
}

export type Rule = (inv: Invocation, out: Verdict, env: RuleEnv) => void;
