import { randomBytes } from 'node:crypto';
import { chmod, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `bytes` to `path` so that a reader (or a crash) sees the old content or the new,
 * never a half-written file: a temporary file in the same folder, flushed to disk, given the
 * file's permission bits, then renamed over it. `mode` undefined: a new file, the umask decides.
 */
export async function writeFileAtomically(path: string, bytes: Uint8Array, mode: number | undefined): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.tandem-${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', mode ?? 0o666);
  try {
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open() applies the umask; an existing file keeps exactly its bits.
    if (mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
