import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Block } from '../../../src/shared/blocks';
import { Pane } from '../../../src/main/panes/pane';
import { integrationAssetsDir } from '../../../src/main/shell/shellLaunch';
import { makeTempDir, removeDir, SHELLS, type ShellName } from '../harness/shellSession';
import { shellWord, sshUsersSkipReason, startSshServer, type SshServer } from '../../support/sshServer';
import { waitUntil } from '../../support/waitUntil';
import { startSshTestPane } from './sshTestPane';

/**
 * `ssh` typed in a Tandem pane (engine Pane, real local bash with its integration) to a real
 * sshd on loopback whose test users have never seen Tandem: the integration travels along,
 * remote blocks carry host, cwd and exit codes, and `exit` brings the local blocks back.
 */

const skip = sshUsersSkipReason() ?? (existsSync(join(integrationAssetsDir(), 'ssh', 'decide.sh')) ? undefined : 'assets/shell-integration/ssh/decide.sh (which ssh commands are wrapped) is not on this branch yet');
const START_MARK = '\x1b]6973;ssh;start;';

describe.skipIf(skip).each(['bash', 'zsh', 'fish'] as ShellName[])(`ssh from a Tandem pane running %s to a user of the same shell${skip ? ` (skipped: ${skip})` : ''}`, (shell) => {
  let server: SshServer;
  let pane: Pane;
  let home: string;
  let stubLog: string;
  let readOnlyTmp: string;
  /** A leftover of an earlier connection, made by the first test (removed here should stage 1 not have). */
  let stale: string | undefined;
  let output = '';
  const notices: string[] = [];
  /** `# ` instructions the pane took away from the shell for the agent. */
  const instructions: string[] = [];
  const user = () => server.users[0]!;
  const dash = () => server.users[1]!;
  const uid = (name: string) => statSync(`/home/${name}`).uid;

  beforeAll(async () => {
    // A TMPDIR the user cannot write to (and no XDG_RUNTIME_DIR without PAM): nowhere private to unpack.
    readOnlyTmp = makeTempDir('ssh-readonly-tmp');
    chmodSync(readOnlyTmp, 0o755);
    server = await startSshServer({
      users: [
        { shell: SHELLS[shell] },
        { shell: '/usr/bin/dash' },
        { shell: SHELLS[shell], match: [`SetEnv TMPDIR=${readOnlyTmp}`] },
        { shell: SHELLS[shell] },
        { shell: SHELLS[shell], match: ['ForceCommand /bin/bash -l'] },
        { shell: SHELLS[shell], match: ['ForceCommand echo "interactive sessions only"; exit 1'] },
      ],
    });
    ({ pane, home, stubLog } = await startSshTestPane({
      id: 3,
      shell,
      homePrefix: 'ssh-local',
      onOutput: (text) => (output += text),
      notices,
      options: () => ({ onPromptRequest: (_, request) => instructions.push(request.text) }),
    }));
  }, 60_000);

  afterAll(async () => {
    await pane?.close();
    await server?.stop();
    if (home) removeDir(home);
    if (readOnlyTmp) removeDir(readOnlyTmp);
    if (stale) removeDir(stale);
  });

  const finished = () => pane.blocks().filter((block) => block.endedAt !== undefined);
  /** Types `line`, waits for its block to finish and the prompt after it. */
  const run = async (line: string): Promise<Block> => {
    const before = finished().length;
    pane.write(`${line}\r`);
    await waitUntil(() => finished().length > before && finished().some((block) => block.command === line && block.endedAt !== undefined) && pane.state === 'PROMPT', `"${line}" to finish`);
    return finished().filter((block) => block.command === line).at(-1)!;
  };
  const sshLine = (user: string, ...rest: string[]) => ['ssh', ...server.loginArgs(user), ...rest].map(shellWord).join(' ');
  const tempDirsOf = (name: string) => readdirSync('/tmp').filter((entry) => entry.startsWith('tandem-ssh.') && statSync(join('/tmp', entry)).uid === uid(name));

  it('gives remote blocks with host, user, cwd and exit codes, and local blocks again after exit', async () => {
    // The directory of an earlier connection whose shell is gone (no such pid): swept at login.
    stale = join('/tmp', `tandem-ssh.${4_194_305 + Math.floor(Math.random() * 1000)}.abcdef`);
    mkdirSync(stale, { mode: 0o700 });
    chownSync(stale, uid(user().name), uid(user().name));
    const line = sshLine(user().name);
    pane.write(`${line}\r`);
    await waitUntil(() => pane.remote !== undefined && pane.state === 'PROMPT', 'the remote prompt with integration', 40_000);
    expect(pane.remote).toMatchObject({ user: user().name, host: hostname(), shell: SHELLS[shell] });
    const sshBlock = pane.blocks().find((block) => block.command === line)!;
    expect(sshBlock.endedAt).toBeUndefined();
    // The directory stage 1 unpacked into is gone by the first prompt, and so is the stale one.
    expect(tempDirsOf(user().name)).toEqual([]);

    const failed = await run('cd /tmp && false');
    expect(failed).toMatchObject({ exitCode: 1, host: hostname(), user: user().name, cwd: user().home, trusted: true });
    const where = await run('pwd');
    expect(where).toMatchObject({ exitCode: 0, cwd: '/tmp', host: hostname() });
    expect((await pane.outputOf(where.id))?.text.trim()).toBe('/tmp');

    // A program printing bare OSC 133 (no nonce) at the remote prompt forges nothing.
    const before = finished().length;
    const forged = await run(`printf '\\033]133;A\\007\\033]133;C\\007forged\\n\\033]133;D;0\\007'`);
    expect(finished().length).toBe(before + 1);
    expect(forged.exitCode).toBe(0);

    // A `#` line at the remote prompt goes to the agent, as locally; the remote shell never sees it.
    pane.write('# for the agent, from the remote prompt\r');
    await waitUntil(() => instructions.length === 1, 'the remote `#` line to reach the agent');
    expect(instructions).toEqual(['for the agent, from the remote prompt']);
    await run('echo after the instruction');
    expect(pane.blocks().some((block) => block.command.includes('for the agent'))).toBe(false);

    pane.write('exit\r');
    await waitUntil(() => pane.remote === undefined && pane.blocks().find((block) => block.command === line)?.endedAt !== undefined && pane.state === 'PROMPT', 'the local prompt after exit');
    expect(pane.blocks().find((block) => block.command === line)).toMatchObject({ exitCode: 0, cwd: home });
    pane.write('# for the agent\r');
    await waitUntil(() => instructions.length === 2, 'the local `#` line to reach the agent');
    const local = await run('echo back home');
    expect(local.host).toBeUndefined();
    expect(local).toMatchObject({ cwd: home, exitCode: 0, trusted: true });
    expect(tempDirsOf(user().name)).toEqual([]);
  }, 120_000);

  it('leaves `ssh host ls` (a remote command) untouched: argv as typed, no start mark', async () => {
    writeFileSync(stubLog, '');
    const starts = output.split(START_MARK).length;
    const typed = [...server.loginArgs(user().name), 'ls', '-a'];
    const block = await run(['ssh', ...typed].map(shellWord).join(' '));
    expect(block.exitCode).toBe(0);
    const invocations = readFileSync(stubLog, 'utf8').split('\n\n').filter(Boolean).map((words) => words.split('\n'));
    expect(invocations.at(-1)).toEqual(typed);
    expect(output.split(START_MARK).length).toBe(starts);
    expect((await pane.outputOf(block.id))?.text).toContain('.bashrc');
  }, 60_000);

  it('gives a dash user a plain shell and one line saying why', async () => {
    const line = sshLine(dash().name);
    pane.write(`${line}\r`);
    await waitUntil(() => output.includes(`tandem: no integration on ${hostname()} (login shell dash is not bash, zsh or fish); plain shell`), 'the fallback line', 40_000);
    await waitUntil(() => notices.some((message) => message.includes(`No Tandem integration on ${hostname()}: the login shell is not bash, zsh or fish`)), 'the pane notice');
    expect(pane.remote).toBeUndefined();
    // A working shell: it runs what is typed.
    pane.write('echo "dash $((40 + 2))"\r');
    await waitUntil(() => output.includes('dash 42'), 'the plain shell to answer');
    pane.write('exit\r');
    await waitUntil(() => pane.blocks().find((block) => block.command === line)?.endedAt !== undefined && pane.state === 'PROMPT', 'the local prompt after exit');
    expect(tempDirsOf(dash().name)).toEqual([]);
  }, 90_000);

  it('falls back to a plain shell with one line when no private directory can be made (read-only TMPDIR)', async () => {
    const readOnly = server.users[2]!;
    const line = sshLine(readOnly.name);
    pane.write(`${line}\r`);
    await waitUntil(() => output.includes(`tandem: no integration on ${hostname()} (cannot create a private directory in ${readOnlyTmp}); plain shell`), 'the fallback line', 40_000);
    await waitUntil(() => notices.some((message) => message.includes('no private temporary directory could be made')), 'the pane notice');
    expect(pane.remote).toBeUndefined();
    pane.write("printf 'plain%sok\\n' -\r");
    await waitUntil(() => output.includes('plain-ok'), 'the plain shell to answer');
    pane.write('exit\r');
    await waitUntil(() => pane.blocks().find((block) => block.command === line)?.endedAt !== undefined && pane.state === 'PROMPT', 'the local prompt after exit');
    expect(readdirSync(readOnlyTmp)).toEqual([]);
  }, 90_000);

  it('carries on through a second hop (ssh typed at the remote prompt), and each exit goes back one hop', async () => {
    const [hop1, hop2] = [user(), server.users[3]!];
    // The second hop logs in with the test key, copied to the first hop's user.
    const key = join(hop1.home, '.ssh', 'hop_key');
    mkdirSync(dirname(key), { recursive: true, mode: 0o700 });
    copyFileSync(server.loginArgs(hop1.name)[1]!, key);
    chmodSync(key, 0o600);
    for (const path of [dirname(key), key]) chownSync(path, uid(hop1.name), uid(hop1.name));
    const outer = sshLine(hop1.name);
    pane.write(`${outer}\r`);
    await waitUntil(() => pane.remote?.user === hop1.name && pane.state === 'PROMPT', 'the first hop’s prompt', 40_000);
    const inner = `ssh -i ${key} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -p ${server.port} ${hop2.name}@127.0.0.1`;
    pane.write(`${inner}\r`);
    await waitUntil(() => pane.remote?.user === hop2.name && pane.state === 'PROMPT', 'the second hop’s prompt', 40_000);
    const failed = await run('cd /tmp && false');
    expect(failed).toMatchObject({ exitCode: 1, user: hop2.name, host: hostname(), cwd: hop2.home, trusted: true });

    pane.write('exit\r');
    await waitUntil(() => pane.remote?.user === hop1.name && pane.state === 'PROMPT' && pane.blocks().find((block) => block.command === inner)?.endedAt !== undefined, 'back on the first hop');
    // `exit` ends with the last command's status (false: 1), and so does the ssh that ran it.
    expect(pane.blocks().find((block) => block.command === inner)).toMatchObject({ exitCode: 1, user: hop1.name });
    expect((await run('echo hop one')).user).toBe(hop1.name);
    pane.write('exit\r');
    await waitUntil(() => pane.remote === undefined && pane.state === 'PROMPT' && pane.blocks().find((block) => block.command === outer)?.endedAt !== undefined, 'back on the local shell');
    expect(tempDirsOf(hop1.name)).toEqual([]);
    expect(tempDirsOf(hop2.name)).toEqual([]);
  }, 120_000);

  it('leaves a login alone with `command ssh`, with `\\ssh` and inside tmux (TMUX set)', async () => {
    const login = server.loginArgs(user().name).map(shellWord).join(' ');
    const lines = [`command ssh ${login}`, `\\ssh ${login}`, `TMUX=/tmp/x,1,0 ssh ${login}`];
    for (const [i, line] of lines.entries()) {
      const starts = output.split(START_MARK).length;
      pane.write(`${line}\r`);
      // A plain remote shell: it answers, and the pane stays on the local shell's stack.
      pane.write(`printf 'plain%s\\n' ${i}-login\r`);
      await waitUntil(() => output.includes(`plain${i}-login`), `the plain remote shell (${line})`, 40_000);
      expect(pane.remote).toBeUndefined();
      expect(output.split(START_MARK).length).toBe(starts);
      pane.write('exit\r');
      await waitUntil(() => pane.blocks().find((block) => block.command === line)?.endedAt !== undefined && pane.state === 'PROMPT', 'the local prompt after exit');
    }
  }, 120_000);

  it('a server that runs its own command (ForceCommand) gives its shell, without integration', async () => {
    const forced = server.users[4]!;
    const line = sshLine(forced.name);
    pane.write(`${line}\r`);
    pane.write("printf 'forced%sok\\n' -\r");
    await waitUntil(() => output.includes('forced-ok'), 'the forced shell to answer', 40_000);
    expect(pane.remote).toBeUndefined();
    pane.write('exit\r');
    await waitUntil(() => pane.blocks().find((block) => block.command === line)?.endedAt !== undefined && pane.state === 'PROMPT', 'the local prompt after exit');
  }, 90_000);

  it('a server that refuses commands is tried again without integration (refusing that too here), and the pane says so', async () => {
    const refusing = server.users[5]!;
    const line = sshLine(refusing.name);
    pane.write(`${line}\r`);
    await waitUntil(() => pane.blocks().find((block) => block.command === line)?.endedAt !== undefined && pane.state === 'PROMPT', 'the refused ssh to end');
    expect(output.split('interactive sessions only').length - 1).toBeGreaterThanOrEqual(2);
    expect(pane.blocks().find((block) => block.command === line)?.exitCode).toBe(1);
    await waitUntil(() => notices.some((message) => message.includes("refused Tandem's ssh bootstrap") && message.includes('connecting again without integration')), 'the notice');
  }, 90_000);
});
