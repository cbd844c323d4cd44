/** What the shell parser finds in a command line: commands, their words (structured into literal and expanded pieces), redirects and parse issues. */
/** One piece of a shell word. */
export type WordPart =
  /** Text the shell takes as it is (escapes and quotes already removed). Unquoted text is subject to globbing, brace expansion and `~`. */
  | { type: 'literal'; value: string; quoted: boolean }
  /**
   * `$name`, `${name}`, `${name:?msg}` … `guarded` when the shell stops on an unset/empty
   * value (`:?`, `?`); `plain` when the expansion is the variable's value and nothing else.
   */
  | { type: 'variable'; name: string; text: string; quoted: boolean; guarded: boolean; plain: boolean }
  /** `$( )`, backticks, `<( )`, `>( )`: `body` is the inner source. */
  | { type: 'substitution'; kind: 'command' | 'process-in' | 'process-out'; text: string; body: string; quoted: boolean }
  /** `$(( ))` */
  | { type: 'arithmetic'; text: string; quoted: boolean }
  /** Anything whose value cannot be known before run time and fits no case above (arrays …). */
  | { type: 'unknown'; text: string; quoted: boolean };

export interface Word {
  /** The source text, as typed. */
  text: string;
  parts: WordPart[];
}

export interface Assignment {
  name: string;
  /** Undefined for `name=` (empty value). */
  value: Word | undefined;
  text: string;
}

export interface Redirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `>&`, `<&`, `>&-`, `<<`, `<<-`, `<<<` … */
  operator: string;
  /** The file descriptor written before the operator (`2>`), when there is one. */
  fd?: string;
  /** The file (or fd number for `>&2`); the word for a here-string. Undefined for heredocs and `>&-`. */
  target?: Word;
  /** The body of a heredoc; `quoted` when the delimiter was quoted (no expansion in the body). */
  heredoc?: { body: string; quoted: boolean };
  text: string;
}

export type ShellCommandKind =
  /** `name args…` with optional leading assignments and redirections. */
  | 'simple'
  /** `export`, `declare`, `local`, `readonly`, `typeset`, `unset`: `name` is the keyword. */
  | 'declaration'
  /** Assignments alone (`A=1 B=2`): they change the shell's own variables. */
  | 'assignment'
  /** Redirections of a compound statement (`{ …; } > f`, `while …; done < f`) or alone (`> f`). */
  | 'redirection'
  /** `[[ … ]]`, `[ … ]` as syntax. */
  | 'test'
  /** `name() { … }`: `name` is the function name; the body's commands are yielded separately. */
  | 'function'
  /**
   * A quoted string that bash evaluates as arithmetic (in `(( ))`, `$(( ))`, `[[ ]]`, a subscript) and
   * that holds a `$( )` or backticks the quotes hid from the parse: bash runs it (`(( 'a[$(cmd)]' ))`).
   * `args` is that string.
   */
  | 'arithmetic';

export interface ShellCommand {
  kind: ShellCommandKind;
  text: string;
  startIndex: number;
  endIndex: number;
  /** The command word; undefined when there is none (assignments or redirections alone). */
  name?: Word;
  args: Word[];
  assignments: Assignment[];
  redirects: Redirect[];
  /** Set when the command is (inside) a stage of a pipeline; ids are unique within one parse. */
  pipeline?: { id: number; stage: number };
  /** Runs in the background (`&` after it or after an enclosing statement). */
  background: boolean;
  /** Names of the function definitions it is written inside, outermost first. */
  functions: string[];
  /** Inside `$( )`, backticks or `<( )` / `>( )`. */
  inSubstitution: boolean;
}

export interface ParseIssue {
  /** The source text the grammar could not place (or that is missing, like a closing quote). */
  text: string;
  startIndex: number;
  kind: 'error' | 'missing' | 'too-deep';
}

export interface ShellAnalysis {
  commands: ShellCommand[];
  issues: ParseIssue[];
}

/** The text of a word with every known-at-parse-time piece resolved, or undefined when some piece is an expansion. */
export function literalValue(word: Word): string | undefined {
  let out = '';
  for (const part of word.parts) {
    if (part.type !== 'literal') return undefined;
    out += part.value;
  }
  return out;
}
