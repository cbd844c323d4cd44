import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { LoopbackGuard } from '../../src/main/server/loopbackGuard';

const guard = new LoopbackGuard('secret-token', () => 4321);
function refusal(path: string, headers: Record<string, string>, websocket: boolean) {
  const request = { url: path, headers } as unknown as IncomingMessage;
  return guard.refusal(request, new URL(path, 'http://127.0.0.1'), websocket);
}
const ours = { host: '127.0.0.1:4321', origin: 'http://127.0.0.1:4321' };

describe('LoopbackGuard', () => {
  it('serves static files to any loopback spelling of our address', () => {
    expect(refusal('/', { host: '127.0.0.1:4321' }, false)).toBeUndefined();
    expect(refusal('/assets/a.js', { host: 'localhost:4321' }, false)).toBeUndefined();
    expect(refusal('/', { host: '[::1]:4321' }, false)).toBeUndefined();
  });

  it('opens the socket only with our origin and the token in the query', () => {
    expect(refusal('/ws?token=secret-token', ours, true)).toBeUndefined();
    expect(refusal('/ws?token=secret-tokeN', ours, true)?.status).toBe(401);
    expect(refusal('/ws?token=secret-token-and-more', ours, true)?.status).toBe(401);
    expect(refusal('/ws', { ...ours, cookie: 'tandem_token=secret-token' }, true)?.status).toBe(401);
    expect(refusal('/ws?token=secret-token', { host: ours.host }, true)?.status).toBe(403);
    expect(refusal('/ws?token=secret-token', { ...ours, origin: 'null' }, true)?.status).toBe(403);
    expect(refusal('/ws?token=secret-token', { ...ours, origin: 'http://evil.example' }, true)?.status).toBe(403);
  });

  it('refuses foreign hosts (DNS rebinding) and foreign origins everywhere', () => {
    expect(refusal('/', { host: 'rebind.example:4321' }, false)?.status).toBe(421);
    expect(refusal('/', { host: '127.0.0.1:80' }, false)?.status).toBe(421);
    expect(refusal('/', { host: '127.0.0.1.:4321' }, false)?.status).toBe(421);
    expect(refusal('/', { host: '127.0.0.1:4321', origin: 'http://evil' }, false)?.status).toBe(403);
    expect(refusal('/ws?token=secret-token', { ...ours, host: 'attacker.test:4321' }, true)?.status).toBe(421);
  });
});
