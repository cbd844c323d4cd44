/**
 * Which links Tandem hands to the operating system (the user's browser or mail client):
 * the same rule for OSC 8 hyperlinks, plain URLs in the terminal and links in the AI panel,
 * in the Electron window and in browser mode.
 */
const OPENABLE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

export function isOpenableExternalUrl(url: string): boolean {
  try {
    return OPENABLE_SCHEMES.has(new URL(url).protocol);
  } catch {
    return false;
  }
}
