import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { shellKindOf } from '../shell/shellLaunch';
import { buildStage0, stage1Text } from './remoteCommand';
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

/** The integration files of `shells`, read once per answer (all three: about 60 KB before gzip). */
function integrationEntries(assetsDir: string, shells: readonly string[]): TarEntry[] {
  const entries: TarEntry[] = [];
  for (const dir of shells) {
    entries.push({ name: `${dir}/`, mode: 0o700 });
    for (const name of readdirSync(join(assetsDir, dir)).sort()) {
      entries.push({ name: `${dir}/${name}`, mode: 0o600, data: readFileSync(join(assetsDir, dir, name)) });
    }
  }
  return entries;
}

/** What the remote shell's own `ssh` wrapper needs for the next hop: stage 0 and the decide script. */
function nextHopEntries(assetsDir: string): TarEntry[] {
  const decide = join(assetsDir, 'ssh', 'decide.sh');
  if (!existsSync(decide)) return [];
  return [
    { name: 'ssh/', mode: 0o700 },
    { name: 'ssh/stage0', mode: 0o600, data: Buffer.from(buildStage0(stage1Text(assetsDir))) },
    { name: 'ssh/decide.sh', mode: 0o600, data: readFileSync(decide) },
  ];
}

/**
 * The gzip'd tar: the scripts plus `n/nonce` (read and deleted by the integration at start).
 * `shell`: the remote login shell's path as stage 1 reported it; only that shell's scripts are
 * sent (half the bytes for bash), all three when it is none of them.
 */
export function payloadArchive(assetsDir: string, nonce: string, shell = ''): Uint8Array {
  const kind = shellKindOf(shell);
  const entries = [
    ...integrationEntries(assetsDir, kind === 'other' ? SHELL_DIRS : [kind]),
    ...nextHopEntries(assetsDir),
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
