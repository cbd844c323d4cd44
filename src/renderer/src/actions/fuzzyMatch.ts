/**
 * Subsequence match with bonuses for word starts and runs, as command palettes do:
 * "spr" finds "Split Pane Right". Undefined when the query does not match.
 */
export function fuzzyScore(query: string, text: string): number | undefined {
  const needle = query.toLowerCase().replace(/\s+/g, '');
  if (needle === '') return 0;
  const haystack = text.toLowerCase();
  let score = haystack.includes(query.toLowerCase().trim()) ? 10 : 0;
  let from = 0;
  let previous = -2;
  for (const char of needle) {
    const index = haystack.indexOf(char, from);
    if (index < 0) return undefined;
    score += 1;
    if (index === previous + 1) score += 3;
    if (index === 0 || /[\s:\-_/.…]/.test(haystack[index - 1] ?? '')) score += 4;
    score -= (index - from) * 0.05;
    previous = index;
    from = index + 1;
  }
  return score - haystack.length * 0.01;
}
