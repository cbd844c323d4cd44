import { createHash } from 'node:crypto';

/** Blocks whose summaries are kept; the oldest goes first. */
const MAX_ENTRIES = 200;

/**
 * Summaries per block, each with a fingerprint of the text it was made from: a block that is
 * still running (or was asked about at another length) gets a new summary, a finished one is
 * summarised once. Holds promises, so two requests for one block share one model call.
 */
export class SummaryCache<T> {
  private readonly entries = new Map<string, { fingerprint: string; value: Promise<T> }>();

  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  static fingerprint(text: string): string {
    return `${text.length}:${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
  }

  get(key: string, fingerprint: string): Promise<T> | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.fingerprint !== fingerprint) return undefined;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, fingerprint: string, value: Promise<T>): void {
    this.entries.delete(key);
    this.entries.set(key, { fingerprint, value });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Forgets `key` if it still holds `value` (a result not worth keeping, such as a fallback). */
  forget(key: string, value: Promise<T>): void {
    if (this.entries.get(key)?.value === value) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
