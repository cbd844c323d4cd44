/**
 * The smallest tar writer the ssh payload needs: POSIX ustar, regular files and directories,
 * names under 100 bytes, owner 0, mtime 0. Hand-written because `tar` is no dependency of the
 * app (only of the packaging tools) and these 40 lines replace a package and its tree; any
 * tar reads the result (GNU, BSD and busybox `tar xf -`).
 */

export interface TarEntry {
  /** Relative path; a trailing `/` makes a directory. */
  name: string;
  mode: number;
  data?: Uint8Array;
}

const BLOCK = 512;

export function ustar(entries: readonly TarEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const entry of entries) {
    const data = entry.data ?? new Uint8Array(0);
    parts.push(header(entry, data.length), data, new Uint8Array((BLOCK - (data.length % BLOCK)) % BLOCK));
  }
  parts.push(new Uint8Array(BLOCK * 2));
  return Buffer.concat(parts);
}

function header(entry: TarEntry, size: number): Uint8Array {
  const name = Buffer.from(entry.name, 'utf8');
  if (name.length >= 100) throw new Error(`tar entry name too long: ${entry.name}`);
  const block = Buffer.alloc(BLOCK);
  const directory = entry.name.endsWith('/');
  const put = (offset: number, text: string) => block.write(text, offset, 'ascii');
  const octal = (offset: number, width: number, value: number) => put(offset, value.toString(8).padStart(width - 1, '0') + '\0');
  name.copy(block, 0);
  octal(100, 8, entry.mode);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, directory ? 0 : size);
  octal(136, 12, 0);
  put(148, '        ');
  put(156, directory ? '5' : '0');
  put(257, 'ustar\0');
  put(263, '00');
  let sum = 0;
  for (const byte of block) sum += byte;
  put(148, sum.toString(8).padStart(6, '0') + '\0 ');
  return block;
}
