/** Between two commands in the joined text: no command holds it (a shell line cannot). */
const SEPARATOR = '\u0000';

/**
 * The distinct commands lower-cased, for finding a text in all of them at once: joined into one
 * string, searched with `indexOf` (one pass over a few megabytes at 100k commands, where 100k
 * separate searches cost several times more), each hit mapped back to its command. And a
 * letter mask per command, which turns most commands that cannot match fuzzily away before
 * any string is read.
 */
export class FoldedCommands {
  readonly texts: string[] = [];
  readonly masks: number[] = [];
  private joined: { text: string; starts: Int32Array } | null = null;

  add(folded: string): void {
    this.texts.push(folded);
    this.masks.push(letterMask(folded));
    this.joined = null;
  }

  /** Each command holding `text` (lower case) once, with where its first occurrence starts. */
  *holding(text: string): Generator<[command: number, at: number]> {
    if (text.length === 0 || text.includes(SEPARATOR)) return;
    const { text: all, starts } = this.joinedText();
    for (let at = all.indexOf(text); at >= 0; ) {
      const command = commandAt(starts, at);
      yield [command, at - starts[command]!];
      const next = command + 1 < starts.length ? starts[command + 1]! : all.length;
      at = all.indexOf(text, next);
    }
  }

  private joinedText(): { text: string; starts: Int32Array } {
    if (this.joined) return this.joined;
    const starts = new Int32Array(this.texts.length);
    let offset = 0;
    this.texts.forEach((text, command) => {
      starts[command] = offset;
      offset += text.length + SEPARATOR.length;
    });
    this.joined = { text: this.texts.join(SEPARATOR), starts };
    return this.joined;
  }
}

/** Which of a–z and 0–9 (one bit for all digits) the text holds; other characters are not counted. */
export function letterMask(text: string): number {
  let mask = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 97 && code <= 122) mask |= 1 << (code - 97);
    else if (code >= 48 && code <= 57) mask |= 1 << 26;
  }
  return mask;
}

/** The command whose text holds the joined text's offset `at`: the last start at or before it. */
function commandAt(starts: Int32Array, at: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}
