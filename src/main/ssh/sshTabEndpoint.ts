import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Socket } from 'node:net';
import { z } from 'zod';
import { takeOwnership, type OwnerAddress, type Ownership } from '../history/ownerLock';
import { readLines } from '../history/ownerProtocol';

/**
 * How `tandem ssh` reaches a running Tandem (the desktop app or `tandem web`): a socket in the
 * user's state folder that only this user can open (mode 0600). `tandem ssh ARGS…` sends one
 * JSON line; the engine asks its window to open a tab that runs `ssh ARGS…` and answers
 * whether one was there. One engine listens at a time; the lock is ownerLock.ts's (a killed
 * engine's leftover socket file is taken over).
 */
export const sshTabRequestSchema = z
  .object({
    op: z.literal('ssh'),
    // Typed into a shell: a control character (Ctrl+U, Ctrl+C, a newline) would act as a key, not as text.
    args: z.array(z.string().max(4_096).refine((arg) => !hasControlCharacter(arg), 'an argument holds a control character')).min(1).max(256),
  })
  .strict();
export type SshTabRequest = z.infer<typeof sshTabRequestSchema>;

export type SshTabAnswer = { ok: true } | { ok: false; reason: 'no-window' | 'invalid'; message: string };

export function hasControlCharacter(text: string): boolean {
  return /[\x00-\x1f\x7f-\x9f]/.test(text);
}

/** Sockets are at most 103 bytes of path on every Unix: a deeper state folder has no endpoint. */
const MAX_SOCKET_PATH = 103;

export function sshTabAddress(stateDir: string, platform: NodeJS.Platform = process.platform): OwnerAddress | undefined {
  const dir = resolve(stateDir);
  const tag = `tandem-ssh-${process.getuid?.() ?? 'user'}-${createHash('sha256').update(dir).digest('hex').slice(0, 16)}`;
  if (platform === 'win32') return { lock: null, endpoint: `\\\\.\\pipe\\${tag}` };
  const endpoint = join(dir, 'ssh-tabs.sock');
  if (Buffer.byteLength(endpoint) > MAX_SOCKET_PATH) return undefined;
  return { lock: platform === 'linux' ? `\0${tag}` : null, endpoint };
}

export interface SshTabHost {
  /** Opens the tab in the window; false when no window is attached. */
  openSshTab(args: string[]): boolean;
}

/**
 * Listens for `tandem ssh` requests; resolves null when another engine already does, or when
 * the state folder's path is too long for a socket (then `tandem ssh` connects in its own terminal).
 */
export async function listenForSshTabs(stateDir: string, host: SshTabHost): Promise<Ownership | null> {
  const address = sshTabAddress(stateDir);
  if (!address) return null;
  return takeOwnership(address, (socket) => answerRequests(socket, host));
}

function answerRequests(socket: Socket, host: SshTabHost): void {
  socket.on('error', () => {});
  readLines(socket, (line) => {
    let answer: SshTabAnswer;
    try {
      const request = sshTabRequestSchema.parse(JSON.parse(line));
      answer = host.openSshTab(request.args) ? { ok: true } : { ok: false, reason: 'no-window', message: 'no Tandem window is open' };
    } catch {
      answer = { ok: false, reason: 'invalid', message: 'not a tandem ssh request' };
    }
    socket.end(`${JSON.stringify(answer)}\n`);
  });
}
