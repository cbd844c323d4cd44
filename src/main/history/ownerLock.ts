import { createHash } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';

/**
 * Where the owner of a history database listens. Holding that address is the ownership lock,
 * and the kernel has to release it when the owner dies, even by kill -9:
 * - Linux: an abstract Unix socket (no file, freed at once with the process; scoped to the
 *   network namespace and to the user by its name).
 * - Windows: a named pipe, which also dies with its process.
 * - elsewhere (macOS, BSD): a socket file beside the database. A killed owner leaves the file,
 *   so a name nobody answers on is removed and taken (`takeOwnership`). Two processes doing
 *   that at the very same moment could both succeed; that window is not closed here.
 */
export interface OwnerAddress {
  kind: 'abstract' | 'pipe' | 'file';
  path: string;
}

export function ownerAddress(databaseFile: string, platform: NodeJS.Platform = process.platform): OwnerAddress {
  const file = resolve(databaseFile);
  const tag = `tandem-history-${process.getuid?.() ?? 'user'}-${createHash('sha256').update(file).digest('hex').slice(0, 16)}`;
  if (platform === 'linux') return { kind: 'abstract', path: `\0${tag}` };
  if (platform === 'win32') return { kind: 'pipe', path: `\\\\.\\pipe\\${tag}` };
  return { kind: 'file', path: `${file}.sock` };
}

/**
 * Listens on the owner address, so this process becomes the owner; resolves null when another
 * live process holds it. `onConnection` is attached before listening, so no client is missed.
 */
export async function takeOwnership(address: OwnerAddress, onConnection: (socket: Socket) => void): Promise<Server | null> {
  const won = await listen(address, onConnection);
  if (won || address.kind !== 'file' || (await answers(address))) return won;
  try {
    unlinkSync(address.path);
  } catch {
    // Someone else removed it first; listening decides.
  }
  return listen(address, onConnection);
}

function listen(address: OwnerAddress, onConnection: (socket: Socket) => void): Promise<Server | null> {
  return new Promise((settle, fail) => {
    const server = createServer(onConnection);
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? settle(null) : fail(error)));
    server.listen(address.path, () => {
      server.removeAllListeners('error');
      // A broken client connection must not take the owner down.
      server.on('error', () => {});
      settle(server);
    });
  });
}

/** Whether a live process accepts connections on the address (a socket file may be left by a killed owner). */
function answers(address: OwnerAddress): Promise<boolean> {
  return new Promise((settle) => {
    const probe = createConnection(address.path);
    probe.once('connect', () => {
      probe.destroy();
      settle(true);
    });
    probe.once('error', () => settle(false));
  });
}
