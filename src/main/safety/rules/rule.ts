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
  | { kind: 'file'; path: string }
  /** Another command's output. `download`: a network fetch feeds it. `text`: the exact text, when known. */
  | { kind: 'pipe'; download: boolean; text?: string; decoded?: boolean; from: string };

/** One command for the rules: its name (a basename when it was a path in a system bin dir) and arguments. */
export interface Invocation {
  name: string;
  args: Arg[];
  stdin: StdinSource;
}

/** What rules may ask of the classifier: nested commands (sh -c, sudo, xargs, find -exec …). */
export interface RuleEnv {
  paths: PathContext;
  /** Classify shell source run by this command; returns the worst level found in it. */
  nestedSource(source: string, via: string): RiskLevel;
  /** Classify an argument vector run by this command (argv[0] is the command). */
  nestedArgv(argv: Arg[], via: string, stdin?: StdinSource): RiskLevel;
  /** Records that the verdict depends on files read now (git's config): see RiskResult.readsFiles. */
  readsFiles?(): void;
  /** Whether the word contains a `$( )` / `<( )` whose body fetches from the network. */
  fetchesCode(word: Word): boolean;
}

export type Rule = (inv: Invocation, out: Verdict, env: RuleEnv) => void;
