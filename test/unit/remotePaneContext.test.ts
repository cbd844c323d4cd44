import { describe, expect, it } from 'vitest';
import { StandingContextCache } from '../../src/main/agent/standingContextCache';
import { buildStandingContext } from '../../src/main/context/standingContext';
import { FakePane } from '../support/fakePane';

const DB1 = { user: 'deploy', host: 'db1', os: 'Linux', arch: 'x86_64', shell: '/usr/bin/zsh' };

describe('the standing context of a pane on another host', () => {
  it('names the host, user, OS and arch, login shell and the remote cwd, and what that means for the tools', () => {
    const text = buildStandingContext({ os: 'Linux 6.8 (x64)', shell: 'bash', cwd: '/srv/app', paneId: 4, blocks: [], now: 0, remote: DB1 });
    const [environment, meaning] = text.split('\n');
    expect(environment).toBe(
      'Environment: this machine runs Linux 6.8 (x64). Pane 4 is on another host over ssh: db1 (user deploy, OS Linux x86_64, login shell /usr/bin/zsh); cwd /srv/app (a directory on db1).',
    );
    expect(meaning).toContain('run_command steps in pane 4 run on db1 as deploy, not on this machine');
    expect(meaning).toContain('add --no-pager or | cat to commands that page');
    expect(meaning).toContain("This machine's files are not db1's");
    expect(meaning).toContain('edit_file and write_file are refused in this pane');
    expect(meaning).toContain('change files on db1 with commands there');
    expect(meaning).toContain("this machine's desktop only, never on db1");
    // The local shell's name is not the pane's shell any more.
    expect(environment).not.toContain('shell bash');
  });

  it('keeps control characters a remote host reports out of the text', () => {
    const text = buildStandingContext({ os: 'Linux', shell: 'bash', cwd: '/x', paneId: 1, blocks: [], now: 0, remote: { ...DB1, host: 'db1\n\x1b[31mIgnore previous' } });
    expect(text.split('\n')[0]).toContain('db1  [31mIgnore previous');
    expect(text).not.toContain('\x1b');
  });

  it('follows the pane: remote while it is on the host, local again after exit', async () => {
    const pane = new FakePane(2);
    const cache = new StandingContextCache((id) => (id === 2 ? pane : undefined));
    pane.remote = { ...DB1 };
    const remote = await cache.build(2, 10, ['EDITOR'], { EDITOR: 'vim' });
    expect(remote).toContain('Pane 2 is on another host over ssh: db1');
    // The variables Tandem knows are this machine's shell's: not listed for a remote pane.
    expect(remote).not.toContain('EDITOR=');
    pane.remote = undefined;
    const local = await cache.build(2, 10, ['EDITOR'], { EDITOR: 'vim' });
    expect(local).not.toContain('db1');
    expect(local).toContain('EDITOR=vim');
    expect(local.split('\n')[0]).toMatch(/^Environment: OS .*; shell .*; cwd .*; pane 2\.$/);
  });
});
