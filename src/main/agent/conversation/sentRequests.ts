/** "What was sent" keeps the request bodies of the conversation up to this many characters in all (oldest dropped first). */
const MAX_KEPT_REQUEST_CHARS = 16 * 1024 * 1024;

/** The request body behind each answer (pretty-printed JSON), newest last, within a size limit. */
export class SentRequests {
  private readonly payloads = new Map<string, string>();
  private chars = 0;

  /** Keeps `body` for the answer `itemId`; older ones go while the total is over the limit (never the newest). */
  keep(itemId: string, body: object): void {
    this.chars -= this.payloads.get(itemId)?.length ?? 0;
    this.payloads.delete(itemId);
    const payload = JSON.stringify(body, null, 2);
    this.payloads.set(itemId, payload);
    this.chars += payload.length;
    for (const [oldest, kept] of this.payloads) {
      if (this.chars <= MAX_KEPT_REQUEST_CHARS || oldest === itemId) break;
      this.payloads.delete(oldest);
      this.chars -= kept.length;
    }
  }

  has(itemId: string): boolean {
    return this.payloads.has(itemId);
  }

  payload(itemId: string): string {
    const payload = this.payloads.get(itemId);
    if (payload === undefined) throw new Error('The request behind that answer is no longer kept (the oldest go once the kept requests pass 16 MB).');
    return payload;
  }

  clear(): void {
    this.payloads.clear();
    this.chars = 0;
  }
}
