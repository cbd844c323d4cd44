import type { Dirent, Stats } from 'node:fs';

/** How the file tools describe an entry's kind, and what went wrong reaching it. */

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

export function describeFsError(error: unknown, where: string, directory: boolean): string {
  switch (errorCode(error)) {
    case 'ENOENT':
      return `No such ${directory ? 'directory' : 'file'}: ${where}. Check the path, or list the parent directory with list_directory.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied: ${where} cannot be ${directory ? 'listed' : 'read'} by this user.`;
    case 'EISDIR':
      return `${where} is a directory; use list_directory to see what it holds.`;
    case 'ENOTDIR':
      return directory ? `${where} is not a directory.` : `A part of the path ${where} is not a directory.`;
    case 'ELOOP':
      return `${where}: too many levels of symbolic links (a link loop).`;
    case 'ENAMETOOLONG':
      return `${where}: the path is too long.`;
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return `Could not ${directory ? 'list' : 'read'} ${where}: ${message}`;
    }
  }
}

export function typeName(entry: Stats | Dirent): string {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'dir';
  if (entry.isSymbolicLink()) return 'link';
  if (entry.isFIFO()) return 'fifo';
  if (entry.isSocket()) return 'socket';
  if (entry.isCharacterDevice()) return 'chardev';
  if (entry.isBlockDevice()) return 'blockdev';
  return 'other';
}

export const SPECIAL_FILE_NAMES: Record<string, string> = {
  fifo: 'a FIFO (named pipe)',
  socket: 'a socket',
  chardev: 'a character device',
  blockdev: 'a block device',
  other: 'not a regular file',
};
