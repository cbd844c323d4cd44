/**
 * Which finished commands Watch mode leaves out of its count. A failure the user caused on
 * purpose (Ctrl+C, Ctrl+Z) or one that answers a question (`grep -q`, `test`, `diff`: "no")
 * is not a sign of being stuck. Such a block neither counts toward a hint nor ends the
 * episode: `make` failing, `grep -q TODO src/x.c` saying no, `make` failing again is still
 * someone stuck on `make`. Only a success ends an episode.
 */

/** 130: SIGINT (Ctrl+C). 148: SIGTSTP (Ctrl+Z) — a suspended job, not a failure. */
const INTERRUPTED_EXIT_CODES = new Set([130, 148]);

/** Programs whose non-zero exit means "no" rather than "broken". */
const QUESTION_PROGRAMS = new Set(['test', '[', '[[', 'diff', 'cmp']);
/** grep-likes answer a question only when told to be quiet. */
const QUIET_GREPS = new Set(['grep', 'egrep', 'fgrep', 'zgrep']);

export function isInterruption(exitCode: number): boolean {
  return INTERRUPTED_EXIT_CODES.has(exitCode);
}

/**
 * The line's exit status is that of a question program: a single pipeline (no `;`, `&&`,
 * `||`, `&` or newline outside quotes, where another command's failure could be the one
 * reported) whose last command is `test`, `[`, `[[`, `diff`, `cmp` or `grep -q`. When the
 * line cannot be read that simply, the failure counts: a missed hint costs less than a
 * user left alone in a loop the detector ignored.
 */
export function isExpectedToFail(commandLine: string): boolean {
  const pipeline = splitPipeline(commandLine);
  const last = pipeline?.at(-1);
  if (!last) return false;
  const words = last.filter((word, index) => !(index < firstProgramIndex(last) && isAssignment(word)));
  const [program, ...args] = words.slice(words[0] === '!' ? 1 : 0);
  if (program === undefined) return false;
  const name = program.split('/').at(-1) ?? program;
  if (QUESTION_PROGRAMS.has(name)) return true;
  return QUIET_GREPS.has(name) && args.some(isQuietFlag);
}

function isQuietFlag(arg: string): boolean {
  if (arg === '--quiet' || arg === '--silent') return true;
  return /^-[A-Za-z]*q[A-Za-z]*$/.test(arg);
}

function isAssignment(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
}

function firstProgramIndex(words: string[]): number {
  const index = words.findIndex((word) => !isAssignment(word) && word !== '!');
  return index < 0 ? words.length : index;
}

/**
 * The commands of a single pipeline as words (quotes removed), or undefined when the line
 * holds more than one pipeline or something this reader does not follow (an unclosed quote).
 */
function splitPipeline(line: string): string[][] | undefined {
  const commands: string[][] = [[]];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  const endWord = () => {
    if (word !== undefined) commands.at(-1)!.push(word);
    word = undefined;
  };
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && index + 1 < line.length) word = (word ?? '') + line[++index]!;
      else word = (word ?? '') + char;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
      continue;
    }
    if (char === '\\' && index + 1 < line.length) {
      word = (word ?? '') + line[++index]!;
      continue;
    }
    if (char === ' ' || char === '\t') {
      endWord();
      continue;
    }
    if (char === '|') {
      if (line[index + 1] === '|') return undefined;
      endWord();
      if (line[index + 1] === '&') index++;
      commands.push([]);
      continue;
    }
    if (char === ';' || char === '&' || char === '\n' || char === '\r') {
      // A trailing `;` ends the only command; `2>&1` is a redirect, not a list.
      if (char === '&' && (line[index - 1] === '>' || line[index - 1] === '<')) {
        word = (word ?? '') + char;
        continue;
      }
      if (line.slice(index + 1).trim() === '' && char !== '&') break;
      return undefined;
    }
    word = (word ?? '') + char;
  }
  if (quote) return undefined;
  endWord();
  return commands.every((command) => command.length > 0) ? commands : undefined;
}
