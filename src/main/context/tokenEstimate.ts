/**
 * A cheap token estimate for context budgets and the context gauge — not for billing.
 *
 * Byte-pair tokenizers used by current models pack English prose and source code at roughly
 * 3.5–4 characters per token; we count ASCII at 1/3.7 token per character. Text outside ASCII
 * packs far worse: accented Latin, Greek, Cyrillic, Hebrew and Arabic (U+0080–U+07FF) take
 * about one token per two characters, and CJK, other scripts and symbols (U+0800 and up) about
 * one per character; characters outside the BMP (emoji, rare CJK) often take two or more.
 * The estimate errs on the high side for non-English text, which is the safe side for a budget.
 */

const ASCII_TOKENS_PER_CHAR = 1 / 3.7;
const LATIN_EXTENDED_TOKENS_PER_CHAR = 0.5;
const BMP_OTHER_TOKENS_PER_CHAR = 1;
const ASTRAL_TOKENS_PER_CHAR = 2;

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Estimated token count of `text` (0 for the empty string, at least 1 otherwise). */
export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  let ascii = 0;
  let latinExtended = 0;
  let bmpOther = 0;
  let astral = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) ascii++;
    else if (code < 0x800) latinExtended++;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      // A surrogate pair is one character; count it once.
      astral++;
      i++;
    } else bmpOther++;
  }
  const estimate =
    ascii * ASCII_TOKENS_PER_CHAR +
    latinExtended * LATIN_EXTENDED_TOKENS_PER_CHAR +
    bmpOther * BMP_OTHER_TOKENS_PER_CHAR +
    astral * ASTRAL_TOKENS_PER_CHAR;
  return Math.max(1, Math.ceil(estimate));
}
