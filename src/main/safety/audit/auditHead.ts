import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

/**
 * `audit.head`: the seq and hash of the last line written. A hash chain cannot notice lines cut
 * off its end; comparing the log's end with the head can.
 */
export interface AuditHead {
  seq: number;
  hash: string;
}

const auditHeadSchema = z.object({ seq: z.number().int().min(0), hash: z.string().regex(/^[0-9a-f]{64}$/) });

export type HeadReading = { kind: 'missing' } | { kind: 'ok'; head: AuditHead } | { kind: 'invalid'; problem: string };

export async function readAuditHead(path: string): Promise<HeadReading> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  try {
    const parsed = auditHeadSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { kind: 'ok', head: { seq: parsed.data.seq, hash: parsed.data.hash } };
  } catch {
    // Not JSON: reported below like any other bad content.
  }
  return { kind: 'invalid', problem: `${path} is not a valid audit head` };
}

/** Write-then-rename, so a crash leaves the old head or the new one, never half of one. */
export async function writeAuditHead(path: string, head: AuditHead): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify({ seq: head.seq, hash: head.hash })}\n`, { mode: 0o600 });
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
