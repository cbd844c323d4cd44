import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { binaryReason } from '../tools/binaryFiles';

/** Files larger than this are not edited or overwritten (1 MiB): an agent's edit of a bigger file is better made by a program. */
export const MAX_EDIT_BYTES = 1024 * 1024;

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A text file as the edit tools found it: its bytes, its text, and what writing it back keeps. */
export interface EditableFile {
  /** The file itself: a symlink's target, so the link stays a link. */
  path: string;
  exists: boolean;
  bytes: Buffer;
  /** The text without a byte-order mark. */
  text: string;
  bom: boolean;
  /** Permission bits (0o644 …) to keep; undefined for a new file (the umask decides). */
  mode: number | undefined;
  /** Of the bytes ('' … for a missing file: the sha256 of nothing). */
  sha256: string;
}

export type Loaded = { ok: true; file: EditableFile } | { ok: false; message: string };

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Reads `path` for an edit: a missing file is empty (write_file creates it); a directory,
 * a device, a binary or non-UTF-8 file, or one over MAX_EDIT_BYTES is refused with the reason.
 */
export async function loadEditableFile(path: string): Promise<Loaded> {
  const target = await realPathOf(path);
  if (!target.ok) return { ok: false, message: target.message };
  if (!target.exists) return { ok: true, file: missingFile(target.path) };
  const info = await stat(target.path).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) return { ok: false, message: `${path} cannot be opened: ${describeError(info)}.` };
  if (info.isDirectory()) return { ok: false, message: `${path} is a directory.` };
  if (!info.isFile()) return { ok: false, message: `${path} is not a regular file (a device, socket or pipe); it is not edited.` };
  if (info.size > MAX_EDIT_BYTES) {
    return { ok: false, message: `${path} is ${info.size} bytes, more than the ${MAX_EDIT_BYTES} bytes (1 MiB) the file tools edit; change it with a command instead.` };
  }
  const bytes = await readFile(target.path).catch((error: NodeJS.ErrnoException) => error);
  if (bytes instanceof Error) return { ok: false, message: `${path} cannot be read: ${describeError(bytes)}.` };
  const bom = bytes.subarray(0, 3).equals(UTF8_BOM);
  const body = bom ? bytes.subarray(3) : bytes;
  const text = strictUtf8(body);
  const binary = binaryReason(body) ?? (text === undefined ? 'it is not valid UTF-8' : undefined);
  if (binary || text === undefined) return { ok: false, message: `${path} is not a UTF-8 text file (${binary}); the file tools only edit UTF-8 text.` };
  return { ok: true, file: { path: target.path, exists: true, bytes, text, bom, mode: info.mode & 0o7777, sha256: sha256(bytes) } };
}

/**
 * Where `path` really is: a symlink's target; for a file not yet there, its name in its
 * folder's real place (the folder must exist).
 */
export async function realPathOf(path: string): Promise<{ ok: true; path: string; exists: boolean } | { ok: false; message: string }> {
  const real = await realpath(path).catch((error: NodeJS.ErrnoException) => error);
  if (!(real instanceof Error)) return { ok: true, path: real, exists: true };
  if ((real as NodeJS.ErrnoException).code !== 'ENOENT') return { ok: false, message: `${path} cannot be opened: ${describeError(real)}.` };
  const folder = await realpath(dirname(path)).catch(() => undefined);
  if (!folder) return { ok: false, message: `The folder ${dirname(path)} does not exist; create it first (mkdir -p).` };
  return { ok: true, path: join(folder, basename(path)), exists: false };
}

/** The bytes of `text` as the file keeps them: with its byte-order mark if it had one. */
export function encodeLike(file: Pick<EditableFile, 'bom'>, text: string): Buffer {
  const body = Buffer.from(text, 'utf8');
  return file.bom ? Buffer.concat([UTF8_BOM, body]) : body;
}

/** The text, or undefined when the bytes are not UTF-8 to the last one (a cut-off character would not survive a write). */
function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function missingFile(path: string): EditableFile {
  const bytes = Buffer.alloc(0);
  return { path, exists: false, bytes, text: '', bom: false, mode: undefined, sha256: sha256(bytes) };
}

function describeError(error: NodeJS.ErrnoException): string {
  if (error.code === 'EACCES' || error.code === 'EPERM') return 'permission denied';
  if (error.code === 'ENOTDIR') return 'a part of the path is not a directory';
  if (error.code === 'ELOOP') return 'too many symbolic links';
  return error.message;
}
