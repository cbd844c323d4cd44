import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { LoopbackGuard } from '../../src/main/server/loopbackGuard';

const guard = new LoopbackGuard('secret-token', () => 4321);
const request = (url: string, headers: Record<string, string>) => ({ url, headers }) as unknown as IncomingMessage;

describe('LoopbackGuard', () => {
  it('accepts our page on any loopback spelling with the token in the query or the cookie', () => {
    expect(guard.refusal(request('/?token=secret-token', { host: '127.0.0.1:4321' }), false)).toBeUndefined();
    expect(guard.refusal(request('/assets/a.js', { host: 'localhost:4321', cookie: 'x=1; tandem_token=secret-token' }), false)).toBeUndefined();
    expect(
      guard.refusal(request('/ws?token=secret-token', { host: '127.0.0.1:4321', origin: 'http://127.0.0.1:4321' }), true),
    ).toBeUndefined();
  });

  it('refuses foreign hosts, foreign origins and bad tokens with distinct statuses', () => {
    expect(guard.refusal(request('/?token=secret-token', { host: 'rebind.example:4321' }), false)?.status).toBe(421);
    expect(guard.refusal(request('/?token=secret-token', { host: '127.0.0.1:80' }), false)?.status).toBe(421);
    expect(guard.refusal(request('/?token=secret-token', { host: '127.0.0.1:4321', origin: 'http://evil' }), false)?.status).toBe(403);
    expect(guard.refusal(request('/ws?token=secret-token', { host: '127.0.0.1:4321' }), true)?.status).toBe(403);
    expect(guard.refusal(request('/?token=secret-tokeN', { host: '127.0.0.1:4321' }), false)?.status).toBe(401);
    expect(guard.refusal(request('/', { host: '127.0.0.1:4321' }), false)?.status).toBe(401);
  });
});
