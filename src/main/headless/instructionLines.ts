import { createInterface } from 'node:readline';

/**
 * Instructions for `tandem agent` from lines of text (stdin, a file of instructions): a `#`
 * line starts one, `#` lines right after it continue it (the seed's §2.6), and a blank line
 * or a line without `#` ends it; a line without `#` is an instruction of its own (the `#` is
 * optional). A `#!` first line (a script's shebang) is skipped.
 */
export class InstructionLines {
  private pending: string[] = [];
  private first = true;

  /** Takes one line; returns the instructions it completed. */
  push(line: string): string[] {
    const isFirst = this.first;
    this.first = false;
    const text = line.replace(/\r$/, '');
    if (isFirst && text.startsWith('#!')) return [];
    const hashed = /^\s*#/.exec(text);
    if (hashed) {
      this.pending.push(text.slice(hashed[0].length).trim());
      return [];
    }
    const done = this.flush();
    if (text.trim()) done.push(text.trim());
    return done;
  }

  /** The instruction still open at the end of the input. */
  flush(): string[] {
    const instruction = this.pending.join(' ').trim();
    this.pending = [];
    return instruction ? [instruction] : [];
  }
}

/** `-c` text: one instruction, the leading `#` optional (also on each of several lines). */
export function commandInstruction(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/^\s*#\s?/, '').trim())
    .filter(Boolean)
    .join('\n');
}

/** Instructions as they arrive on a text stream, one at a time. */
export async function* instructionsFrom(input: NodeJS.ReadableStream): AsyncGenerator<string> {
  const lines = new InstructionLines();
  const reader = createInterface({ input, crlfDelay: Infinity, terminal: false });
  for await (const line of reader) yield* lines.push(line);
  yield* lines.flush();
}
