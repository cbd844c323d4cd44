import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The checks every browser-mode request passes: the Host header names the loopback address
 * we listen on (a DNS-rebinding page has its own host name there), a WebSocket's Origin is
 * our own page, and the per-launch token is presented (query or cookie).
 */
export class LoopbackGuard {
  constructor(
    private readonly token: string,
    private readonly port: () => number,
  ) {}

  allowedHosts(): string[] {
    const port = this.port();
    return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  }

  hostIsLoopback(request: IncomingMessage): boolean {
    const host = (request.headers.host ?? '').toLowerCase();
    return this.allowedHosts().includes(host);
  }

  /** A missing Origin is allowed for plain page loads; a WebSocket must carry ours. */
  originIsOurs(request: IncomingMessage, required: boolean): boolean {
    const origin = request.headers.origin;
    if (origin === undefined) return !required;
    return this.allowedHosts().some((host) => origin.toLowerCase() === `http://${host}`);
  }

  tokenMatches(candidate: string | null | undefined): boolean {
    if (!candidate) return false;
    const expected = Buffer.from(this.token);
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * Why a request is refused, or undefined when it may proceed. Static files (the page and
   * its bundle, the same for everyone) only need a loopback Host; the WebSocket — the only
   * way to reach a shell — also needs our Origin and the token in its query string.
   */
  refusal(request: IncomingMessage, url: URL, websocket: boolean): { status: number; reason: string } | undefined {
    if (!this.hostIsLoopback(request)) return { status: 421, reason: 'Host is not the loopback address Tandem listens on.' };
    if (!this.originIsOurs(request, websocket)) return { status: 403, reason: 'Cross-origin requests are refused.' };
    if (websocket && !this.tokenMatches(url.searchParams.get('token'))) {
      return { status: 401, reason: 'Missing or wrong token: open the URL Tandem printed.' };
    }
    return undefined;
  }
}
