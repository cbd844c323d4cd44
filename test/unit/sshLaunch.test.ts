import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsSchema } from '../../src/shared/settings';
import { buildShellLaunch, integrationAssetsDir } from '../../src/main/shell/shellLaunch';
import { buildStage0, stage1Text } from '../../src/main/ssh/remoteCommand';

const base = { extraArgs: [], login: false, integration: true, nonce: 'nonce-for-tests', baseEnv: { HOME: '/tmp', PATH: '/usr/bin:/bin' }, cwd: '/tmp' };

describe('[ssh] integrate reaches the shell', () => {
  it('defaults to "auto" and takes only "auto" or "off"', () => {
    expect(SettingsSchema.parse({}).ssh.integrate).toBe('auto');
    expect(SettingsSchema.parse({ ssh: { integrate: 'off' } }).ssh.integrate).toBe('off');
    expect(SettingsSchema.safeParse({ ssh: { integrate: 'yes' } }).success).toBe(false);
  });

  it.each(['/usr/bin/bash', '/usr/bin/zsh', '/usr/bin/fish'])('with it on, %s gets stage 0 (in a private file) and the decide script', (shellPath) => {
    const launch = buildShellLaunch({ ...base, shellPath, ssh: true });
    try {
      expect(readFileSync(launch.env.TANDEM_SSH_STAGE0!, 'utf8')).toBe(buildStage0(stage1Text(integrationAssetsDir())));
      expect(launch.env.TANDEM_SSH_DECIDE).toBe(join(integrationAssetsDir(), 'ssh', 'decide.sh'));
    } finally {
      launch.cleanup();
    }
  });

  it('with it off, or without integration, the shell hears nothing of ssh', () => {
    const off = buildShellLaunch({ ...base, shellPath: '/usr/bin/bash', ssh: false });
    const plain = buildShellLaunch({ ...base, shellPath: '/usr/bin/bash', integration: false, ssh: true });
    try {
      for (const launch of [off, plain]) {
        expect(launch.env.TANDEM_SSH_STAGE0).toBeUndefined();
        expect(launch.env.TANDEM_SSH_DECIDE).toBeUndefined();
      }
    } finally {
      off.cleanup();
      plain.cleanup();
    }
  });
});
