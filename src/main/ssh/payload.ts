import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ustar, type TarEntry } from './ustar';

/**
 * What the engine types into the pane when stage 1 on a remote host asks for it: the
 * integration scripts and a fresh nonce, as base64 of a gzip'd tar between two marker lines.
 * Base64 never starts a line with `~`, so ssh's escape character cannot fire.
 */

export const PAYLOAD_BEGIN = 'TANDEM-BEGIN';
export const PAYLOAD_END = 'TANDEM-END';
const LINE = 76;
const SHELL_DIRS = ['bash', 'zsh', 'fish'] as const;

/** The integration files, read once per answer (they are small: about 60 KB before gzip). */
function integrationEntries(assetsDir: string): TarEntry[] {
  const entries: TarEntry[] = [];
  for (const dir of SHELL_DIRS) {
    entries.push({ name: `${dir}/`, mode: 0o700 });
    for (const name of readdirSync(join(assetsDir, dir)).sort()) {
      entries.push({ name: `${dir}/${name}`, mode: 0o600, data: readFileSync(join(assetsDir, dir, name)) });
    }
  }
  return entries;
}

/** The gzip'd tar: the scripts plus `n/nonce` (read and deleted by the integration at start). */
export function payloadArchive(assetsDir: string, nonce: string): Uint8Array {
  const entries = [
    ...integrationEntries(assetsDir),
    { name: 'n/', mode: 0o700 },
    { name: 'n/nonce', mode: 0o600, data: Buffer.from(`${nonce}\n`) },
  ];
  return gzipSync(ustar(entries), { level: 9 });
}

/** The text typed into the pty: a newline, the begin marker, base64 lines, the end marker. */
export function payloadText(archive: Uint8Array): string {
  const base64 = Buffer.from(archive).toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < base64.length; i += LINE) lines.push(base64.slice(i, i + LINE));
  return `\n${PAYLOAD_BEGIN}\n${lines.join('\n')}\n${PAYLOAD_END}\n`;
}
