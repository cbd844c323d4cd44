import type { Socket } from 'node:net';
import { z } from 'zod';
import type { HistoryResult } from './historyRecord';

/**
 * What clients send the owner of a history database and what it answers: one JSON object a
 * line (NDJSON) each way, over the owner's socket (ownerLock.ts). Answers carry the request's
 * id; they come back in order, but callers match by id.
 */
export const OPERATIONS = ['record', 'search', 'neighbours', 'forget', 'stats'] as const;
export type Operation = (typeof OPERATIONS)[number];

export const ownerRequestSchema = z.object({ id: z.number().int(), op: z.enum(OPERATIONS), args: z.unknown().optional() });
export type OwnerRequest = z.output<typeof ownerRequestSchema>;

export type OwnerResponse = { id: number } & HistoryResult<unknown>;

/**
 * A line longer than this is refused and its connection closed, so a broken peer cannot grow
 * memory without end. Clients check their requests against it before sending (`encodeRequest`):
 * a batch of blocks with full output must be split by its sender.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** The request's line, or null when it is over MAX_LINE_BYTES. */
export function encodeRequest(request: OwnerRequest): string | null {
  const line = `${JSON.stringify(request)}\n`;
  return Buffer.byteLength(line) > MAX_LINE_BYTES ? null : line;
}

export function writeLine(socket: Socket, message: OwnerResponse): void {
  socket.write(`${JSON.stringify(message)}\n`);
}

/** Calls `onLine` for every complete line read from `socket`; a line over the cap destroys the socket. */
export function readLines(socket: Socket, onLine: (line: string) => void): void {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  socket.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const line = Buffer.concat([...pending, chunk.subarray(start, newline)]).toString('utf8');
      pending = [];
      pendingBytes = 0;
      start = newline + 1;
      if (socket.destroyed) return;
      onLine(line);
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > MAX_LINE_BYTES) socket.destroy(new Error(`a history request line over ${MAX_LINE_BYTES} bytes was refused`));
    }
  });
}
