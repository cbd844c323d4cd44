import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Reading the log as exact bytes. readline would also split at a bare `\r` and drop the `\r`
 * of `\r\n`, so a hash over its lines would not be a hash over what is on disk.
 */

const NEWLINE = 0x0a;

/** Every line of a file without its `\n`, streamed. A last line without `\n` is yielded too. */
export async function* readLines(path: string): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      pending.push(chunk.subarray(start, end));
      yield pending.length === 1 ? pending[0]! : Buffer.concat(pending);
      pending = [];
      start = end + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) yield Buffer.concat(pending);
}

export interface LogTail {
  /** The last line without its `\n`; undefined for an empty file. */
  lastLine?: Buffer;
  /** False when the file ends in the middle of a line (a write was cut off, or the file was cut). */
  endsWithNewline: boolean;
  size: number;
}

const TAIL_CHUNK = 64 * 1024;

/** The last line of a file, read backwards from the end so a long log costs no more than a short one. */
export async function readLogTail(path: string): Promise<LogTail> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return { endsWithNewline: true, size };
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    const endsWithNewline = last[0] === NEWLINE;
    const lineEnd = endsWithNewline ? size - 1 : size;
    const chunks: Buffer[] = [];
    let position = lineEnd;
    while (position > 0) {
      const length = Math.min(TAIL_CHUNK, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, position);
      const newline = chunk.lastIndexOf(NEWLINE);
      if (newline !== -1) {
        chunks.unshift(chunk.subarray(newline + 1));
        break;
      }
      chunks.unshift(chunk);
    }
    return { lastLine: Buffer.concat(chunks), endsWithNewline, size };
  } finally {
    await handle.close();
  }
}
