import { shellTimeout } from './shellTimeout';

/** Polls `predicate` (every 20 ms) until it holds; fails naming `what` after `timeoutMs` (scaled for this machine). */
export async function waitUntil(predicate: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + shellTimeout(timeoutMs);
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
