import { chownSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pane } from '../../../src/main/panes/pane';
import { integrationAssetsDir } from '../../../src/main/shell/shellLaunch';
import { removeDir, type ShellName } from '../harness/shellSession';
import { shellWord, sshUsersSkipReason, startSshServer, type SshServer } from '../../support/sshServer';
import { waitUntil } from '../../support/waitUntil';
import { startSshTestPane } from './sshTestPane';

/**
 * How a wrapped `ssh` fails (docs/ssh.md "When there is no integration"), from a Tandem pane
 * (engine Pane, real local shell) to a real sshd on loopback: a server that refuses remote
 * commands is tried again plain at once and remembered; a ForceCommand shell is named once and
 * never retried; a slow login with a code prompt is no false alarm; a shell without
 * integration started at a remote prompt gets its notice.
 */

const skip = sshUsersSkipReason() ?? (existsSync(join(integrationAssetsDir(), 'ssh', 'decide.sh')) ? undefined : 'no ssh integration on this branch');
const START_MARK = '\x1b]6973;ssh;start;';
/** Refuses any remote command, like a bastion ("interactive sessions only"), and gives an interactive login a shell. */
const REFUSING = `ForceCommand if [ -n "$SSH_ORIGINAL_COMMAND" ]; then echo "interactive sessions only"; exit 1; fi; exec /bin/bash -l`;

describe.skipIf(skip).each(['bash', 'zsh', 'fish'] as ShellName[])(`ssh fallbacks from a Tandem pane running %s${skip ? ` (skipped: ${skip})` : ''}`, (shell) => {
  let server: SshServer;
  let pane: Pane;
  let home: string;
  let stubLog: string;
  let plainHosts: string;
  let output = '';
  const notices: string[] = [];
  const refusing = () => server.users[0]!;
  const forced = () => server.users[1]!;
  const slow = () => server.users[2]!;
  const plainUser = () => server.users[3]!;

  beforeAll(async () => {
    server = await startSshServer({
      users: [
        { shell: '/usr/bin/bash', match: [REFUSING] },
        { shell: '/usr/bin/bash', match: ['ForceCommand /bin/bash -l'] },
        { shell: '/usr/bin/bash' },
        { shell: '/usr/bin/bash' },
      ],
    });
    // A slow login that asks for a code first: sshd runs ~/.ssh/rc on the terminal before the command.
    const rc = join(slow().home, '.ssh', 'rc');
    mkdirSync(join(slow().home, '.ssh'), { recursive: true });
    writeFileSync(rc, "printf 'Verification code: '\nsleep 2\nprintf 'ok\\r\\n'\n");
    const uid = statSync(slow().home).uid;
    for (const path of [join(slow().home, '.ssh'), rc]) chownSync(path, uid, uid);
    ({ pane, home, stubLog } = await startSshTestPane({
      id: 4,
      shell,
      homePrefix: 'ssh-fallbacks',
      onOutput: (text) => (output += text),
      notices,
      options: (local) => ({ sshPlainHosts: (plainHosts = join(local, 'state', 'ssh-plain-hosts')) }),
    }));
  }, 60_000);

  afterAll(async () => {
    await pane?.close();
    await server?.stop();
    if (home) removeDir(home);
  });

  const sshLine = (user: string) => ['ssh', ...server.loginArgs(user)].map(shellWord).join(' ');
  /** The connections ssh was asked for (decide.sh's `ssh -G` left out). */
  const invocations = () =>
    readFileSync(stubLog, 'utf8')
      .split('\n\n')
      .filter(Boolean)
      .map((words) => words.split('\n'))
      .filter((argv) => argv[0] !== '-G');
  const ended = (line: string) => pane.blocks().filter((block) => block.command === line).at(-1)?.endedAt !== undefined && pane.state === 'PROMPT';
  const key = (user: string) => `${user}@127.0.0.1:${server.port}`;

  it('a server that refuses remote commands: connected again plain at once, remembered, and plain directly the next time', async () => {
    writeFileSync(stubLog, '');
    const line = sshLine(refusing().name);
    pane.write(`${line}\r`);
    await waitUntil(() => notices.some((message) => message.includes("refused Tandem's ssh bootstrap") && message.includes(key(refusing().name))), 'the notice of the retry', 40_000);
    pane.write("printf 'plain%s\\n' -one\r");
    await waitUntil(() => output.includes('plain-one'), 'the plain shell of the retry', 40_000);
    expect(output).toContain('interactive sessions only');
    expect(pane.remote).toBeUndefined();
    // The wrapped attempt (its -t and stage 0), then the user's arguments exactly as typed.
    const [wrapped, plain, ...more] = invocations();
    expect(wrapped).toContain('-t');
    expect(plain).toEqual(server.loginArgs(refusing().name));
    expect(more).toEqual([]);
    expect(readFileSync(plainHosts, 'utf8')).toMatch(new RegExp(`^${key(refusing().name).replace(/\./g, '\\.')}\\t`, 'm'));
    pane.write('exit\r');
    await waitUntil(() => ended(line), 'the local prompt after exit');
    expect(pane.blocks().filter((block) => block.command === line).at(-1)?.exitCode).toBe(0);

    // Next time: plain at once, one line saying why, no start mark.
    writeFileSync(stubLog, '');
    const starts = output.split(START_MARK).length;
    pane.write(`${line}\r`);
    pane.write("printf 'plain%s\\n' -two\r");
    await waitUntil(() => output.includes('plain-two'), 'the plain shell', 40_000);
    expect(output).toContain("tandem: this server refused Tandem's ssh bootstrap before; plain ssh");
    expect(invocations()).toEqual([server.loginArgs(refusing().name)]);
    expect(output.split(START_MARK).length).toBe(starts);
    pane.write('exit\r');
    await waitUntil(() => ended(line), 'the local prompt after exit');
  }, 120_000);

  it('a ForceCommand shell is named once, and a quick failing exit from it is not retried', async () => {
    writeFileSync(stubLog, '');
    const noticeCount = notices.length;
    const line = sshLine(forced().name);
    pane.write(`${line}\r`);
    await waitUntil(() => notices.some((message) => message === "127.0.0.1 ran its own command instead of Tandem's (ForceCommand?): a plain shell runs there, without blocks."), 'the ForceCommand notice', 40_000);
    pane.write('exit 3\r');
    await waitUntil(() => ended(line), 'the local prompt after exit');
    expect(pane.blocks().filter((block) => block.command === line).at(-1)?.exitCode).toBe(3);
    expect(invocations()).toHaveLength(1);
    // Only that notice: nothing about a refusal, nothing about a shell without integration.
    expect(notices.slice(noticeCount)).toEqual(["127.0.0.1 ran its own command instead of Tandem's (ForceCommand?): a plain shell runs there, without blocks."]);
    expect(readFileSync(plainHosts, 'utf8')).not.toContain(forced().name);
  }, 90_000);

  it('a slow login that asks for a code first is no false alarm; `sh -i` at the remote prompt gets its notice', async () => {
    const noticeCount = notices.length;
    const line = sshLine(slow().name);
    pane.write(`${line}\r`);
    await waitUntil(() => pane.remote?.user === slow().name && pane.state === 'PROMPT', 'the remote prompt with integration', 40_000);
    expect(output).toContain('Verification code: ok');
    expect(notices.slice(noticeCount)).toEqual([]);

    pane.write('sh -i\r');
    await waitUntil(() => notices.some((message) => message.startsWith(`\`sh -i\` on ${hostname()} started a shell without Tandem's integration`)), 'the notice for the remote sh');
    pane.write('exit\r');
    await waitUntil(() => pane.blocks().find((block) => block.command === 'sh -i')?.endedAt !== undefined && pane.state === 'PROMPT', 'the remote prompt again');
    expect(pane.remote?.user).toBe(slow().name);
    pane.write('exit\r');
    await waitUntil(() => pane.remote === undefined && ended(line), 'the local prompt after exit');
  }, 90_000);

  // tmux: .ci/run installs it. One local shell is enough: what tmux does is the same under each.
  it.runIf(shell === 'bash')('tmux: a remote tmux is one block of the remote shell; ssh inside a local tmux is plain ssh', async () => {
    const line = sshLine(plainUser().name);
    pane.write(`${line}\r`);
    await waitUntil(() => pane.remote?.user === plainUser().name && pane.state === 'PROMPT', 'the remote prompt with integration', 40_000);
    const finishedBefore = pane.blocks().filter((block) => block.endedAt !== undefined).length;
    const remoteTmux = 'tmux -L tandem-test new-session';
    pane.write(`${remoteTmux}\r`);
    pane.write('echo in-remote-tmux-$((1 + 1))\r');
    await waitUntil(() => output.includes('in-remote-tmux-2'), 'the shell inside the remote tmux', 40_000);
    // Its shell has no integration: its commands are no blocks; tmux is one running block on the host.
    expect(pane.blocks().filter((block) => block.endedAt !== undefined)).toHaveLength(finishedBefore);
    expect(pane.blocks().find((block) => block.command === remoteTmux)).toMatchObject({ host: hostname(), user: plainUser().name });
    expect(pane.blocks().find((block) => block.command === remoteTmux)?.endedAt).toBeUndefined();
    pane.write('exit\r');
    await waitUntil(() => pane.blocks().find((block) => block.command === remoteTmux)?.endedAt !== undefined && pane.state === 'PROMPT', 'the remote prompt after tmux');
    expect(pane.blocks().find((block) => block.command === remoteTmux)).toMatchObject({ exitCode: 0, usedAlternateScreen: true });
    pane.write('cd /tmp && false\r');
    await waitUntil(() => pane.blocks().find((block) => block.command === 'cd /tmp && false')?.endedAt !== undefined, 'a remote block after tmux');
    expect(pane.blocks().find((block) => block.command === 'cd /tmp && false')).toMatchObject({ exitCode: 1, host: hostname(), user: plainUser().name });
    pane.write('exit\r');
    await waitUntil(() => pane.remote === undefined && ended(line), 'the local prompt after exit');

    const starts = output.split(START_MARK).length;
    const localTmux = `tmux -L tandem-test-${process.pid} -f /dev/null new-session`;
    pane.write(`${localTmux}\r`);
    pane.write(`${line}\r`);
    pane.write("printf 'plain%s\\n' -in-local-tmux; exit\r");
    await waitUntil(() => output.includes('plain-in-local-tmux') && output.slice(output.lastIndexOf('plain-in-local-tmux')).includes('Connection to 127.0.0.1 closed'), 'the plain remote shell inside the local tmux, and its end', 40_000);
    expect(output.split(START_MARK).length).toBe(starts);
    expect(pane.remote).toBeUndefined();
    pane.write('exit\r');
    await waitUntil(() => ended(localTmux), 'the local prompt after tmux');
  }, 120_000);
});
