import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { integrationAssetsDir } from '../../../src/main/shell/shellLaunch';
import { buildStage0, STAGE0_LIMIT, stage1Text } from '../../../src/main/ssh/remoteCommand';

/**
 * Stage 0 is what sshd hands to the user's login shell as `$SHELL -c <command>`: every login
 * shell must parse it the same way and reach stage 1. Without a terminal stage 1 gives up at
 * once, which shows it ran: the fallback line and mark, then the plain login shell (here dash,
 * reading `echo` from stdin): never no shell.
 */

const CONN = '0123456789abcdef';
const LOGIN_SHELLS = ['/bin/sh', '/usr/bin/bash', '/usr/bin/zsh', '/usr/bin/fish', '/usr/bin/csh', '/usr/bin/tcsh'];

describe('stage 0 (the remote command of a wrapped ssh)', () => {
  const stage0 = buildStage0(stage1Text(integrationAssetsDir()));

  it('stays under its size limit (Dropbear takes 9,000 bytes) and holds none of the characters a shell treats specially inside single quotes', () => {
    expect(Buffer.byteLength(stage0)).toBeLessThan(STAGE0_LIMIT);
    const quoted = stage0.slice(stage0.indexOf("' '") + 3, -1);
    expect(quoted).not.toMatch(/[\n'\\!]/);
  });

  it.each(LOGIN_SHELLS)('runs stage 1 when %s is the login shell, which falls back to a plain shell without a terminal', (shell) => {
    if (!existsSync(shell)) return expect.fail(`${shell} is not installed (.ci/run installs it)`);
    const ran = spawnSync(shell, ['-c', `${stage0} ${CONN}`], {
      input: 'echo plain shell runs\n',
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: '/tmp', SHELL: '/usr/bin/dash' },
      timeout: 20_000,
    });
    expect(ran.stderr).toContain(`tandem: no integration on ${hostname()} (no terminal); plain shell`);
    expect(ran.stdout).toContain('plain shell runs');
    expect(ran.status).toBe(0);
  });

  it('refuses a stage 1 holding the bytes that carry its quotes', () => {
    expect(() => buildStage0('echo \x01')).toThrow(/bytes 1 to 4/);
  });
});
