import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { ClientConnection } from '../engine/clientConnection';
import type { Engine } from '../engine/engine';
import { LoopbackGuard } from './loopbackGuard';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.ico': 'image/x-icon',
};

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function parseRequestUrl(request: IncomingMessage): URL | undefined {
  try {
    return new URL(request.url ?? '/', 'http://127.0.0.1');
  } catch {
    return undefined;
  }
}

export interface WebServerOptions {
  engine: Engine;
  rendererDir: string;
  port?: number;
  /** Fixed token for tests; a random one per launch otherwise. */
  token?: string;
}

/**
 * Browser mode: the renderer bundle and the engine behind one HTTP + WebSocket server on
 * 127.0.0.1. Every request needs a loopback Host; the WebSocket also needs our own Origin
 * and the per-launch token (the page keeps it in sessionStorage, so no cookie is set that
 * other services on 127.0.0.1 would receive).
 */
export class WebServer {
  readonly token: string;
  private readonly server: Server;
  private readonly sockets = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024, perMessageDeflate: false });
  private readonly guard: LoopbackGuard;

  constructor(private readonly options: WebServerOptions) {
    this.token = options.token ?? randomBytes(24).toString('base64url');
    this.guard = new LoopbackGuard(this.token, () => this.port);
    this.server = createServer((request, response) => {
      this.serveHttp(request, response).catch(() => response.destroy());
    });
    this.server.on('upgrade', (request, socket, head) => {
      try {
        this.upgrade(request, socket as Socket, head);
      } catch {
        socket.destroy();
      }
    });
    this.server.on('clientError', (_error, socket) => socket.destroy());
  }

  get port(): number {
    return (this.server.address() as AddressInfo | null)?.port ?? 0;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/?token=${this.token}`;
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    for (const client of this.sockets.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async serveHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = parseRequestUrl(request);
    if (!url) {
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad request.\n');
      return;
    }
    const refusal = this.guard.refusal(request, url, false);
    if (refusal) {
      response.writeHead(refusal.status, { 'content-type': 'text/plain; charset=utf-8' }).end(refusal.reason + '\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (url.pathname === '/ws') {
      // The page asks here why its WebSocket was refused (a browser does not show the
      // upgrade's status): 401 means no token or the wrong one, so retrying cannot help.
      const tokenOk = this.guard.tokenMatches(url.searchParams.get('token'));
      response
        .writeHead(tokenOk ? 426 : 401, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
        .end(tokenOk ? 'Upgrade to a WebSocket.\n' : 'Missing or wrong token: open the URL Tandem printed.\n');
      return;
    }
    const file = this.staticFile(url.pathname);
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.\n');
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, {
        'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
        'content-security-policy': CSP,
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found. Was the renderer built (npm run build)?\n');
    }
  }

  /** The file under the renderer directory a path names, or undefined when it escapes it or is malformed. */
  private staticFile(pathname: string): string | undefined {
    let relative: string;
    try {
      relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname.slice(1));
    } catch {
      return undefined;
    }
    if (relative.includes('\0')) return undefined;
    const root = normalize(this.options.rendererDir + sep);
    const file = normalize(join(root, relative));
    return file.startsWith(root) ? file : undefined;
  }

  private upgrade(request: IncomingMessage, socket: Socket, head: Buffer): void {
    // Our own listeners: a client that resets a refused socket must not crash the server.
    socket.on('error', () => socket.destroy());
    const url = parseRequestUrl(request);
    const refusal = !url
      ? { status: 400, reason: 'Bad request.' }
      : url.pathname === '/ws'
        ? this.guard.refusal(request, url, true)
        : { status: 404, reason: 'Not found.' };
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal.status} Refused\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${refusal.reason}\n`);
      return;
    }
    this.sockets.handleUpgrade(request, socket, head, (ws) => this.connect(ws));
  }

  private connect(ws: WebSocket): void {
    const connection = new ClientConnection(this.options.engine, {
      sendText: (text) => ws.readyState === ws.OPEN && ws.send(text),
      sendBinary: (bytes) => ws.readyState === ws.OPEN && ws.send(bytes, { binary: true }),
    });
    ws.on('message', (data, isBinary) => {
      // A Buffer as it is (ws's default binary type): a keystroke is not copied on its way in.
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
      if (isBinary) connection.handleBinary(bytes);
      else void connection.handleText(bytes.toString('utf8'));
    });
    ws.on('close', () => connection.disconnect());
    ws.on('error', () => connection.disconnect());
  }
}
