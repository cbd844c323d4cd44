import { expect, test } from '@playwright/test';
import { request as httpRequest } from 'node:http';
import { WebSocket } from 'ws';
import { removeHome, startTandem, type TandemServer } from './support/tandemServer';

let server: TandemServer;

test.beforeAll(async () => {
  server = await startTandem();
});

test.afterAll(async () => {
  await server.stop();
  removeHome(server.home);
});

function get(path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Tries a WebSocket upgrade; resolves 'open' or the refusal status. */
function openSocket(query: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws${query}`, { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
    ws.on('error', (error) => resolve(`error: ${error.message}`));
  });
}

test('listens on the loopback address only and prints a URL with a token', () => {
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
});

test('serves the static page to loopback, sets no cookie, and refuses bad paths', async () => {
  const host = { host: `127.0.0.1:${server.port}` };
  expect(await get(`/?token=${server.token}`, host)).toBe(200);
  expect(await get('/../../etc/passwd', host)).toBe(404);
  expect(await get('/..%2f..%2fetc%2fpasswd', host)).toBe(404);
  expect(await get('/%E0%A4%A', host)).toBe(404);
  const response = await fetch(server.url);
  expect(response.headers.get('set-cookie')).toBeNull();
});

test('a plain GET of /ws says only whether the token is right (401 or 426), and opens nothing', async () => {
  const host = { host: `127.0.0.1:${server.port}` };
  expect(await get('/ws', host)).toBe(401);
  expect(await get('/ws?token=wrong', host)).toBe(401);
  expect(await get(`/ws?token=${server.token}`, host)).toBe(426);
  // The loopback Host check comes first, as everywhere.
  expect(await get(`/ws?token=${server.token}`, { host: `attacker.test:${server.port}` })).toBe(421);
});

test('a malformed request line or a reset refused socket does not bring the server down', async () => {
  const { connect } = await import('node:net');
  const raw = (text: string) =>
    new Promise<string>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write(text));
      let answer = '';
      socket.on('data', (data) => (answer += data));
      socket.on('close', () => resolve(answer));
      socket.on('error', () => resolve(answer));
    });
  const host = `Host: 127.0.0.1:${server.port}`;
  expect(await raw(`GET //[ HTTP/1.1\r\n${host}\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400/);
  expect(
    await raw(`GET //[ HTTP/1.1\r\n${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: x\r\nSec-WebSocket-Version: 13\r\n\r\n`),
  ).toMatch(/400/);
  for (let i = 0; i < 20; i++) {
    await new Promise<void>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(`GET /ws HTTP/1.1\r\n${host}\r\nOrigin: http://evil\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: x\r\nSec-WebSocket-Version: 13\r\n\r\n` + 'x'.repeat(200_000));
        socket.resetAndDestroy();
        resolve();
      });
      socket.on('error', () => resolve());
    });
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(server.process.exitCode).toBeNull();
  expect(await get(`/`, { host: `127.0.0.1:${server.port}` })).toBe(200);
});

test('refuses a Host that is not the loopback address (DNS rebinding)', async () => {
  expect(await get(`/?token=${server.token}`, { host: `evil.example:${server.port}` })).toBe(421);
  expect(await get(`/?token=${server.token}`, { host: `127.0.0.1:1` })).toBe(421);
});

test('refuses WebSocket connections without the token, from a foreign Origin, or with a foreign Host', async () => {
  const origin = `http://127.0.0.1:${server.port}`;
  expect(await openSocket(`?token=${server.token}`, { origin })).toBe('open');
  expect(await openSocket('', { origin })).toBe('401');
  expect(await openSocket('?token=nope', { origin })).toBe('401');
  expect(await openSocket('', { origin, cookie: `tandem_token=${server.token}` })).toBe('401');
  expect(await openSocket(`?token=${server.token}`, { origin: 'http://evil.example' })).toBe('403');
  expect(await openSocket(`?token=${server.token}`, {})).toBe('403');
  expect(await openSocket(`?token=${server.token}`, { origin, host: `attacker.test:${server.port}` })).toBe('421');
});

test('a page on another origin cannot open the socket from a real browser', async ({ page }) => {
  // A page served by a different loopback origin tries to connect with the stolen token.
  await page.goto('about:blank');
  const result = await page.evaluate(
    ([port, token]) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`);
        ws.onopen = () => resolve('open');
        ws.onerror = () => resolve('refused');
      }),
    [server.port, server.token] as const,
  );
  expect(result).toBe('refused');
});

test('sends a strict Content-Security-Policy with the page', async ({ request }) => {
  const response = await request.get(server.url);
  expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(response.headers()['x-frame-options']).toBe('DENY');
});
