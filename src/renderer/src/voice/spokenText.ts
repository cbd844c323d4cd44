import { MAX_SPOKEN_CHARS } from '../../../shared/voice';

/**
 * An answer as it is read aloud: code blocks are not read (the panel shows them), Markdown
 * marks and link targets go, and a long answer stops at the last sentence that fits.
 */
export function spokenText(markdown: string): string {
  const text = markdown
    .replace(/```[\s\S]*?(```|$)/g, ' (code in the panel) ')
    .replace(/`([^`\n]*)`/g, '$1')
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/(\*\*|__|\*|_|~~)(\S[^\n]*?\S|\S)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= MAX_SPOKEN_CHARS) return text;
  const cut = text.slice(0, MAX_SPOKEN_CHARS);
  const sentenceEnd = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return sentenceEnd > MAX_SPOKEN_CHARS / 2 ? cut.slice(0, sentenceEnd + 1) : cut;
}
