const STORAGE_KEY = 'tandem.token';

/**
 * The per-launch token of `tandem web` arrives in the page URL. Keep it for reloads in
 * sessionStorage (per tab, gone when the tab closes) and take it out of the address bar so
 * it does not end up in screenshots, history or bookmarks.
 */
export function takeBrowserToken(): string | undefined {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      sessionStorage.setItem(STORAGE_KEY, fromUrl);
    } catch {
      // Storage can be disabled; the token then lives only for this page load.
    }
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * A token the user pasted (the whole address `tandem web` printed, or the token alone), kept
 * like one from the URL; the page then reloads to use it. False when there is no token in it.
 */
export function adoptPastedToken(text: string): boolean {
  const trimmed = text.trim();
  let token = trimmed;
  try {
    token = new URL(trimmed).searchParams.get('token') ?? '';
  } catch {
    // Not an address: the token alone.
  }
  if (!/^[\w-]{8,}$/.test(token)) return false;
  try {
    sessionStorage.setItem(STORAGE_KEY, token);
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}
