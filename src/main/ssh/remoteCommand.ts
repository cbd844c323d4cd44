import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Stage 0: the remote command a wrapped `ssh` sends, `exec sh -c '<unmapper>' '<stage 1>'`,
 * to which the wrapper appends the connection id. sshd hands it to the user's login shell
 * (`$SHELL -c`), which may be sh, bash, zsh, fish, csh or tcsh; all of them parse it the same
 * way, because the only quoting is single quotes and nothing inside them is special to any
 * of those shells: stage 1's newlines, single quotes, backslashes and `!` (csh's history) are
 * sent as the bytes 1 to 4 and mapped back by `tr` (kitty's technique). If that cannot run,
 * the tail starts the plain login shell. docs/ssh.md.
 */

/** The bytes stage 1's four awkward characters travel as, in order: newline ' \ !. */
const MAPPED = ['\n', "'", '\\', '!'] as const;
const UNMAPPER = `eval "$(printf %s "$0" | tr "\\001\\002\\003\\004" "\\012\\047\\134\\041")"; exec "\${SHELL:-/bin/sh}" -l`;
/** Dropbear takes at most 9,000 bytes of command; stay well under with the connection id. */
export const STAGE0_LIMIT = 8 * 1024;

/** Stage 1 without its comment lines and blank lines (comments explain; they are not sent). */
export function stage1Text(assetsDir: string): string {
  const source = readFileSync(join(assetsDir, 'ssh', 'stage1.sh'), 'utf8');
  return source
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
    .join('\n');
}

/** The remote command without the connection id (the wrapper adds ` <id>`). */
export function buildStage0(stage1: string): string {
  if (/[\x01-\x04]/.test(stage1)) throw new Error('stage 1 must not contain the bytes 1 to 4: they carry its newlines and quotes');
  let mapped = stage1;
  MAPPED.forEach((character, i) => {
    mapped = mapped.split(character).join(String.fromCharCode(i + 1));
  });
  const command = `exec sh -c '${UNMAPPER}' '${mapped}'`;
  if (Buffer.byteLength(command) > STAGE0_LIMIT) throw new Error(`stage 0 is ${Buffer.byteLength(command)} bytes, over its ${STAGE0_LIMIT}-byte limit`);
  return command;
}
