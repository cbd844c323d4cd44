/**
 * What of a block's output the small model is sent: all of it when it fits, otherwise its
 * first lines, its error and warning lines with context and its last lines, cut to a budget.
 */
import { errorLines, headTail, splitLines } from '../../context/outputExcerpt';

/** About 20,000 tokens: a summary of a huge log costs cents, not dollars. */
export const MAX_INPUT_CHARS = 80_000;
const HEAD_LINES = 100;

export function modelInput(text: string, maxChars = MAX_INPUT_CHARS): { text: string; reduction?: string } {
  if (text.length <= maxChars) return { text };
  const lines = splitLines(text);
  const head = lines.slice(0, HEAD_LINES).join('\n');
  const rest = lines.slice(HEAD_LINES).join('\n');
  const errors = errorLines(rest, { maxLines: 600, tailLines: 150, maxLineChars: 400 }).text;
  const reduced = headTail(`${head}\n… [the rest, filtered:] …\n${errors}`, { maxLines: Number.MAX_SAFE_INTEGER, maxChars }).text;
  return {
    text: reduced,
    reduction: 'The output was too long to send whole: below are its first lines, then the lines that look like errors or warnings with context and its last lines; every gap is marked.',
  };
}
