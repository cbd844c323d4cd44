import type { Rect } from '../geometry';

export interface TsvWord {
  text: string;
  /** In the pixels of the image Tesseract read. */
  box: Rect;
  confidence: number;
  /** Lines numbered from 0 in reading order. */
  line: number;
}

const WORD_LEVEL = '5';

/**
 * The words of `tesseract … tsv` output (level, page, block, paragraph, line, word, left, top,
 * width, height, conf, text). Words without a letter or digit and a low confidence are the
 * usual misreadings of borders and icons, and are dropped.
 */
export function parseTesseractTsv(tsv: string): TsvWord[] {
  const words: TsvWord[] = [];
  const lineNumbers = new Map<string, number>();
  for (const row of tsv.split('\n').slice(1)) {
    const columns = row.split('\t');
    if (columns.length < 12 || columns[0] !== WORD_LEVEL) continue;
    const text = columns.slice(11).join('\t').trim();
    const confidence = Number(columns[10]);
    if (!text || !(confidence >= 0)) continue;
    if (!/[\p{L}\p{N}]/u.test(text) && confidence < 60) continue;
    const lineKey = columns.slice(1, 5).join('/');
    if (!lineNumbers.has(lineKey)) lineNumbers.set(lineKey, lineNumbers.size);
    const [left, top, width, height] = columns.slice(6, 10).map(Number) as [number, number, number, number];
    words.push({ text, box: { x: left, y: top, width, height }, confidence, line: lineNumbers.get(lineKey)! });
  }
  return words;
}

export function wordsAsLines(words: readonly { text: string; line: number }[]): string {
  const lines: string[][] = [];
  for (const word of words) (lines[word.line] ??= []).push(word.text);
  return lines
    .filter((line) => line !== undefined)
    .map((line) => line.join(' '))
    .join('\n');
}
