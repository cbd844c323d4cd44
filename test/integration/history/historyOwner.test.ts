import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ownerAddress, type OwnerAddress } from '../../../src/main/history/ownerLock';
import { HistoryStore } from '../../../src/main/history/historyStore';
import { waitUntil } from '../../support/waitUntil';

let dir: string;
let file: string;
const stores: HistoryStore[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-history-owner-'));
  file = join(dir, 'history.sqlite');
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(address?: OwnerAddress): Promise<HistoryStore> {
  const store = await HistoryStore.open({ file, address });
  stores.push(store);
  return store;
}

it('locks with an abstract socket on Linux and serves clients on a socket file beside the database', () => {
  const linux = ownerAddress(file, 'linux');
  expect(linux.lock).toMatch(/^\0tandem-history-\w+-[0-9a-f]{16}$/);
  expect(linux.endpoint).toBe(`${file}.sock`);
  expect(ownerAddress(join(dir, 'other.sqlite'), 'linux').lock).not.toBe(linux.lock);
  expect(ownerAddress(file, 'darwin')).toEqual({ lock: null, endpoint: `${file}.sock` });
  expect(ownerAddress(file, 'win32')).toEqual({ lock: null, endpoint: expect.stringMatching(/^\\\\\.\\pipe\\tandem-history-/) });
  const deep = join(dir, 'd'.repeat(120), 'history.sqlite');
  expect(ownerAddress(deep, 'linux', { XDG_RUNTIME_DIR: '/run/user/1000' }).endpoint).toMatch(/^\/run\/user\/1000\/tandem-history-\w+-[0-9a-f]{16}\.sock$/);
});

it('only this user may connect to the owner, and the socket file goes with the owner', async () => {
  const owner = await open();
  const { endpoint } = ownerAddress(file);
  expect(statSync(endpoint).mode & 0o777).toBe(0o600);
  owner.close();
  await waitUntil(() => !existsSync(endpoint), 'the socket file to be removed');
});

it('a socket path too long for the system is a clear error from every call at once, not a wait, a hang or a throw', async () => {
  const deep = join(dir, 'd'.repeat(120), 'history.sqlite');
  const store = await HistoryStore.open({ file: deep, address: ownerAddress(deep, 'linux', {}) });
  stores.push(store);
  expect(await store.search({})).toEqual({ ok: false, error: expect.stringMatching(/cannot be shared between processes: the history socket path .* is longer than 103 bytes; set XDG_RUNTIME_DIR/) });
});

it('a client that speaks garbage is cut off, and the owner goes on serving the others', async () => {
  const owner = await open();
  const client = await open();
  expect([owner.isOwner, client.isOwner]).toEqual([true, false]);
  const stranger = createConnection(ownerAddress(file).endpoint);
  stranger.on('error', () => {});
  stranger.write('GET / HTTP/1.1\r\n\r\n');
  await once(stranger, 'close');
  expect(await client.record([{ command: 'echo still here', host: 'h', startedAt: 1, author: 'you' }])).toMatchObject({ ok: true, value: { stored: 1 } });
});

it('a client refuses a request over the line limit with a clear error, and its connection stays usable', async () => {
  await open();
  const client = await open();
  const output = 'o'.repeat(1024 * 1024);
  const huge = Array.from({ length: 17 }, (_, i) => ({ command: `cat big${i}`, host: 'h', startedAt: i, author: 'you' as const, output }));
  expect(await client.record(huge)).toEqual({ ok: false, error: 'this history record request is over 16 MiB; send it in smaller batches' });
  expect(await client.record(huge.slice(0, 8))).toMatchObject({ ok: true, value: { stored: 8 } });
  expect(client.isOwner).toBe(false);
});

it('with a socket file, one left by a killed owner is taken over, and a live owner is not', async () => {
  const address: OwnerAddress = { lock: null, endpoint: join(dir, 'history.sqlite.sock') };
  const squatter = spawn(process.execPath, ['-e', "require('net').createServer().listen(process.argv[1], () => console.log('up'))", address.endpoint], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  squatter.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitUntil(() => output.includes('up'), 'a process to listen on the socket file');
  squatter.kill('SIGKILL');
  await once(squatter, 'exit');
  expect(existsSync(address.endpoint)).toBe(true);

  const owner = await open(address);
  const client = await open(address);
  expect([owner.isOwner, client.isOwner]).toEqual([true, false]);
  expect(await client.record([{ command: 'echo over a socket file', host: 'h', startedAt: 1, author: 'you' }])).toMatchObject({ ok: true, value: { stored: 1 } });
  owner.close();
  expect(await client.search({ query: 'socket file' })).toMatchObject({ ok: true, value: [{ command: 'echo over a socket file' }] });
  expect(client.isOwner).toBe(true);
});
