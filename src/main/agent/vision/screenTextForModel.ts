import type { ScreenText } from '../../desktop/desktop';

/** More words than this are left out of the word boxes (the text keeps them all); the model is told. */
export const MAX_WORD_BOXES = 1_500;

/**
 * OCR for the model: what was read and in which space (the target's screenshot, or the
 * computer tool's display when that tool is offered), the text by lines, then each line's
 * words with their boxes (x,y,width,height in pixels of the screenshot space, what a UI
 * action's coordinates use), so it can find "the button labelled Retry".
 */
export function screenTextForModel(read: ScreenText, display?: { computerDisplay: true; outside: number }): string {
  const head = display
    ? `Text read (OCR, Tesseract) from ${read.description}. Boxes are x,y,width,height in pixels of the computer tool's display (${read.space.describe()}): ` +
      `click a word's centre with the computer tool.${display.outside > 0 ? ` ${display.outside} words lie outside that display (another screen) and are left out.` : ''} OCR can misread or miss words.`
    : `Text read (OCR, Tesseract) from ${read.description}: ${read.space.describe()}. Boxes are x,y,width,height in pixels of that image; OCR can misread or miss words.`;
  if (read.words.length === 0) return `${head}\nNo text was found.`;
  const boxed = read.words.slice(0, MAX_WORD_BOXES);
  const lines = new Map<number, string[]>();
  for (const word of boxed) {
    const { x, y, width, height } = word.box;
    const line = lines.get(word.line) ?? [];
    line.push(`${word.text} [${x},${y},${width},${height}]`);
    lines.set(word.line, line);
  }
  const boxes = [...lines.values()].map((words) => words.join('  ')).join('\n');
  const left = read.words.length - boxed.length;
  const more = left > 0 ? `\n(${left} more words without boxes; read a smaller region or window for them.)` : '';
  return `${head}\n\nText:\n${read.text}\n\nWords with boxes, by line:\n${boxes}${more}`;
}
