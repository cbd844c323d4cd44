import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';

/**
 * Who owns a history database, and where its clients reach it.
 *
 * The lock must be released by the kernel when the owner dies, even by kill -9. On Linux it is
 * an abstract Unix socket the owner listens on and never answers (freed at once with the
 * process). Abstract names have no permissions, so clients do not talk to the owner there:
 * they use the endpoint, a socket file beside the database that only this user can open
 * (mode 0600 in the data folder). Only the lock holder removes a stale endpoint and listens on
 * it, so a killed owner's leftover file is never a question.
 *
 * Elsewhere the endpoint is the lock too: on Windows a named pipe (which dies with its
 * process; not hardened or tested here); on macOS and BSD the socket file, where a name nobody
 * answers on is removed and taken. Two processes doing that at the very same moment could both
 * succeed; that window is not closed. This path is tested on Linux.
 */
export interface OwnerAddress {
  /** The abstract socket held as the lock, or null where the endpoint is the lock. */
  lock: string | null;
  endpoint: string;
}

/** The longest socket file path every Unix takes (sun_path is 104 bytes on macOS, 108 on Linux). */
const MAX_SOCKET_PATH = 103;

export function ownerAddress(databaseFile: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): OwnerAddress {
  const file = resolve(databaseFile);
  const tag = `tandem-history-${process.getuid?.() ?? 'user'}-${createHash('sha256').update(file).digest('hex').slice(0, 16)}`;
  if (platform === 'win32') return { lock: null, endpoint: `\\\\.\\pipe\\${tag}` };
  let endpoint = `${file}.sock`;
  // A deep data folder: the runtime folder is private to the user too (XDG spec: mode 0700).
  if (Buffer.byteLength(endpoint) > MAX_SOCKET_PATH && env.XDG_RUNTIME_DIR?.startsWith('/')) endpoint = join(env.XDG_RUNTIME_DIR, `${tag}.sock`);
  return { lock: platform === 'linux' ? `\0${tag}` : null, endpoint };
}

/** What the owner holds; `close` lets go of it. */
export interface Ownership {
  close(): void;
}

/**
 * Takes the lock and listens on the endpoint, so this process becomes the owner; resolves null
 * when another live process owns the database. `onConnection` is attached before listening,
 * so no client is missed.
 */
export async function takeOwnership(address: OwnerAddress, onConnection: (socket: Socket) => void): Promise<Ownership | null> {
  if (Buffer.byteLength(address.endpoint) > MAX_SOCKET_PATH && !address.endpoint.startsWith('\\\\')) {
    throw new Error(`the history socket path ${address.endpoint} is longer than ${MAX_SOCKET_PATH} bytes; set XDG_RUNTIME_DIR or a shorter XDG_DATA_HOME`);
  }
  if (!address.endpoint.startsWith('\\\\')) mkdirSync(dirname(address.endpoint), { recursive: true, mode: 0o700 });
  if (address.lock === null) {
    const server = await listenOrTakeStale(address.endpoint, onConnection);
    if (server) restrict(address.endpoint);
    return server && { close: () => server.close() };
  }
  const lock = await listen(address.lock, (socket) => socket.destroy());
  if (!lock) return null;
  removeStale(address.endpoint);
  const server = await listen(address.endpoint, onConnection).catch((error: unknown) => {
    lock.close();
    throw error;
  });
  if (!server) {
    lock.close();
    return null;
  }
  restrict(address.endpoint);
  return {
    close: () => {
      server.close();
      lock.close();
    },
  };
}

async function listenOrTakeStale(path: string, onConnection: (socket: Socket) => void): Promise<Server | null> {
  const won = await listen(path, onConnection);
  if (won || path.startsWith('\\\\') || (await answers(path))) return won;
  removeStale(path);
  return listen(path, onConnection);
}

function listen(path: string, onConnection: (socket: Socket) => void): Promise<Server | null> {
  return new Promise((settle, fail) => {
    const server = createServer(onConnection);
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? settle(null) : fail(error)));
    server.listen(path, () => {
      server.removeAllListeners('error');
      // A broken client connection must not take the owner down.
      server.on('error', () => {});
      settle(server);
    });
  });
}

function removeStale(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Not there, or removed by someone else first: listening decides.
  }
}

/** Only this user may connect (the folder is the user's too; this covers a folder made 0755). */
function restrict(path: string): void {
  if (!path.startsWith('\\\\')) chmodSync(path, 0o600);
}

/** Whether a live process accepts connections on the path (a socket file may be left by a killed owner). */
function answers(path: string): Promise<boolean> {
  return new Promise((settle) => {
    const probe = createConnection(path);
    probe.once('connect', () => {
      probe.destroy();
      settle(true);
    });
    probe.once('error', () => settle(false));
  });
}
