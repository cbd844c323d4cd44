/** Lower case, letters and digits only, single spaces: how spoken text and phrases are compared. */
function words(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Whether a transcript says a voice watcher's phrase: its words, in order, as whole words
 * ("Deploy to staging, please!" says "deploy to staging"; "redeploy to staging" does not).
 */
export function saysPhrase(transcript: string, phrase: string): boolean {
  const said = ` ${words(transcript)} `;
  const wanted = words(phrase);
  return wanted !== '' && said.includes(` ${wanted} `);
}
