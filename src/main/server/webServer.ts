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

export interface WebServerOptions {
  engine: Engine;
  rendererDir: string;
  port?: number;
  /** Fixed token for tests; a random one per launch otherwise. */
  token?: string;
}

/**
 * Browser mode: the renderer bundle and the engine behind one HTTP + WebSocket server on
 * 127.0.0.1. Every request must carry the per-launch token and a loopback Host; the
 * WebSocket also needs our own Origin.
 */
export class WebServer {
  readonly token: string;
  private readonly server: Server;
  private readonly sockets = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024, perMessageDeflate: false });
  private readonly guard: LoopbackGuard;

  constructor(private readonly options: WebServerOptions) {
    this.token = options.token ?? randomBytes(24).toString('base64url');
    this.guard = new LoopbackGuard(this.token, () => this.port);
    this.server = createServer((request, response) => void this.serveHttp(request, response));
    this.server.on('upgrade', (request, socket, head) => this.upgrade(request, socket as Socket, head));
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
    const refusal = this.guard.refusal(request, false);
    if (refusal) {
      response.writeHead(refusal.status, { 'content-type': 'text/plain; charset=utf-8' }).end(refusal.reason + '\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const relative = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
    const root = normalize(this.options.rendererDir + sep);
    const file = normalize(join(root, relative));
    if (!file.startsWith(root)) {
      response.writeHead(404).end();
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
        // Assets are loaded without the query string; the cookie carries the token for them.
        'set-cookie': `tandem_token=${this.token}; HttpOnly; SameSite=Strict; Path=/`,
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found. Was the renderer built (npm run build)?\n');
    }
  }

  private upgrade(request: IncomingMessage, socket: Socket, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const refusal = url.pathname === '/ws' ? this.guard.refusal(request, true) : { status: 404, reason: 'Not found.' };
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
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      if (isBinary) connection.handleBinary(bytes);
      else void connection.handleText(bytes.toString('utf8'));
    });
    ws.on('close', () => connection.disconnect());
    ws.on('error', () => connection.disconnect());
  }
}
