/**
 * A command line as the simple commands it runs, each as its words — enough to tell what a
 * block ran (`cd app && FORCE_COLOR=1 npx vitest run | tee log` runs `vitest run`), not a
 * shell parser: quotes are removed, expansions are kept as written, and anything this reader
 * does not follow just yields fewer or odder words.
 */

/** Words that stand before the program and do not change what kind of program it is. */
const WRAPPERS = new Set(['sudo', 'doas', 'time', 'nice', 'nohup', 'env', 'command', 'exec', 'npx', 'bunx', 'stdbuf', 'unbuffer', 'timeout', '!']);

/** Each simple command's words, program first (wrappers and leading `VAR=value` dropped). */
export function simpleCommands(line: string): string[][] {
  return splitCommands(line)
    .map(withoutWrappers)
    .filter((words) => words.length > 0);
}

/** The program's name without its directory (`./node_modules/.bin/jest` → `jest`). */
export function programName(word: string): string {
  return word.split('/').at(-1) ?? word;
}

function withoutWrappers(words: string[]): string[] {
  let start = 0;
  while (start < words.length) {
    const word = words[start]!;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) start++;
    else if (WRAPPERS.has(programName(word))) {
      start++;
      // `timeout 30s cmd`, `nice -n 5 cmd`, `env -i cmd`: skip the wrapper's own options and duration.
      while (start < words.length && (/^-/.test(words[start]!) || /^\d+[smhd]?$/.test(words[start]!))) start++;
    } else break;
  }
  return words.slice(start);
}

function splitCommands(line: string): string[][] {
  const commands: string[][] = [[]];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  const endWord = () => {
    if (word !== undefined) commands.at(-1)!.push(word);
    word = undefined;
  };
  const endCommand = () => {
    endWord();
    if (commands.at(-1)!.length > 0) commands.push([]);
  };
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else word = (word ?? '') + char;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (char === '\\' && index + 1 < line.length) {
      word = (word ?? '') + line[++index]!;
    } else if (char === '&' && (line[index - 1] === '>' || line[index + 1] === '>')) {
      // `2>&1`, `&>file`: a redirection, not a background job.
      word = (word ?? '') + char;
    } else if (char === ';' || char === '|' || char === '&' || char === '\n' || char === '(' || char === ')') {
      endCommand();
    } else if (char === ' ' || char === '\t') {
      endWord();
    } else {
      word = (word ?? '') + char;
    }
  }
  endWord();
  return commands.filter((words) => words.length > 0);
}
