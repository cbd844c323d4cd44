/**
 * One line of an ssh config as OpenSSH splits it (readconf.c, argv_split): the keyword ends at
 * whitespace or one `=`; arguments are words separated by whitespace, `"…"` or `'…'` quote
 * spaces, a backslash escapes a quote, a space or itself, and an unquoted `#` starting a word
 * ends the line. Empty for a blank or comment line; undefined when a quote is left open.
 */
export function splitConfigLine(line: string): string[] | undefined {
  const head = /^\s*([^\s=#][^\s=]*)\s*(?:=\s*)?/.exec(line);
  if (!head) return [];
  const words = splitWords(line.slice(head[0].length));
  return words && [head[1]!, ...words];
}

function splitWords(text: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && i + 1 < text.length && /["'\\ ]/.test(text[i + 1]!)) {
      word = (word ?? '') + text[++i];
    } else if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === '#' && word === undefined) {
      break;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (quote !== undefined) return undefined;
  if (word !== undefined) words.push(word);
  return words;
}
