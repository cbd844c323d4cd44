import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pane } from '../../../src/main/panes/pane';
import type { PaneOptions } from '../../../src/main/panes/paneOptions';
import { makeTempDir, SHELLS, skipFishCompletionJob, writeFiles, type ShellName } from '../harness/shellSession';
import { shellWord } from '../../support/sshServer';
import { waitUntil } from '../../support/waitUntil';

export interface SshTestPane {
  pane: Pane;
  /** The local HOME (a fresh temp dir): `bin/ssh` is the stub, first on PATH. */
  home: string;
  /** What the stub logs: each argv of `ssh`, one word per line, a blank line after. */
  stubLog: string;
}

/**
 * A Tandem pane (engine Pane, a real local shell with its integration, ssh integration on) at
 * its first prompt, whose `ssh` is a stub first on PATH that logs each argv and runs the real one.
 */
export async function startSshTestPane(input: {
  id: number;
  shell: ShellName;
  homePrefix: string;
  onOutput: (text: string) => void;
  notices: string[];
  options?: (home: string) => Partial<PaneOptions>;
}): Promise<SshTestPane> {
  const home = makeTempDir(input.homePrefix);
  const stubLog = join(home, 'ssh-argv.log');
  writeFiles(home, {
    'bin/ssh': `#!/bin/sh\nprintf '%s\\n' "$@" '' >>${shellWord(stubLog)}\nexec /usr/bin/ssh "$@"\n`,
    '.config/fish/config.fish': 'set -g fish_greeting\n',
  });
  chmodSync(join(home, 'bin', 'ssh'), 0o755);
  skipFishCompletionJob(home);
  writeFileSync(stubLog, '');
  const pane = new Pane({
    id: input.id,
    shellPath: SHELLS[input.shell],
    cwd: home,
    cols: 160,
    rows: 40,
    scrollback: 2_000,
    integration: true,
    login: false,
    sshIntegrate: true,
    env: { PATH: `${join(home, 'bin')}:${process.env.PATH}`, HOME: home, LANG: 'C.UTF-8', TERM: 'xterm-256color' },
    ...input.options?.(home),
  });
  pane.attach({
    output: (_, bytes) => input.onOutput(Buffer.from(bytes).toString('utf8')),
    event: (event, payload) => {
      if (event === 'pane.notice') input.notices.push((payload as { message: string }).message);
    },
  });
  pane.start();
  await waitUntil(() => pane.state === 'PROMPT', 'the local prompt');
  return { pane, home, stubLog };
}
