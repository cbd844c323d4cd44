import { DesktopError } from '../desktopError';

/** How long Tandem's window may take to answer a query or give a capture. */
export const PAGE_ANSWER_LIMIT_MS = 5_000;

/**
 * `promise`, or a `failed` DesktopError saying `what` did not come within `limitMs`: a page
 * that is reloading after a crash may never answer, and a look step cannot be interrupted.
 */
export async function pageAnswer<T>(promise: Promise<T>, limitMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DesktopError('failed', `${what} did not come within ${limitMs} ms (is Tandem's window reloading?)`)), limitMs);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
