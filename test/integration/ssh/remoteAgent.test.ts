import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latest, planIdOf, requestText, toolResults, waitForIdleWithAnswer, waitForStep } from '../../support/agentConversation';
import { useAgentEngine } from '../../support/agentEngine';
import type { EngineClient } from '../../support/engineClient';
import { shellWord, sshUsersSkipReason, startSshServer, type SshServer } from '../../support/sshServer';
import { removeDir, SHELLS } from '../harness/shellSession';

/**
 * The agent on a remote pane (docs/ssh.md): the engine's bash pane runs `ssh` to a real sshd on
 * loopback, whose bash user has never seen Tandem; a `#` instruction at the remote prompt goes
 * to the scripted model with the host in the standing context, approved steps run there, and
 * the gate judges them without this machine's files.
 */

const skip = sshUsersSkipReason();
const open = useAgentEngine();

let server: SshServer | undefined;
let shared: string | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  if (shared) removeDir(shared);
  shared = undefined;
});

/** Types `ssh …` and waits for the remote shell's first prompt (the ssh block still running). */
async function sshInto(client: EngineClient, paneId: number, line: string): Promise<void> {
  client.type(paneId, `${line}\r`);
  await client.waitFor(() => client.eventsOf('block.started').some((block) => block.paneId === paneId && block.command === line), 20_000, 'the ssh block');
  await client.waitFor(
    () => {
      const started = client.eventsOf('block.started').filter((block) => block.paneId === paneId).at(-1);
      const state = client.eventsOf('pane.state').filter((s) => s.paneId === paneId).at(-1);
      return started?.command === line && state?.state === 'PROMPT' && !client.eventsOf('block.finished').some((block) => block.command === line);
    },
    40_000,
    'the remote prompt',
  );
}

describe.skipIf(skip)(`the agent on a pane that ssh took to another host${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('takes `#` at the remote prompt (never in the remote history), runs the approved step there, and judges git status without the local repository', async () => {
    const { client, model, paneId, home } = await open();
    server = await startSshServer({ users: [{ shell: SHELLS.bash }] });
    const user = server.users[0]!;
    const host = hostname();
    // A local git repository at the path the remote step will cd to, whose config names programs.
    shared = mkdtempSync(join(tmpdir(), 'tandem-remote-repo-'));
    chmodSync(shared, 0o755);
    execFileSync('git', ['init', '-q'], { cwd: shared, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: home } });
    execFileSync('git', ['config', 'core.fsmonitor', join(shared, 'fsmonitor-hook')], { cwd: shared });
    execFileSync('git', ['config', 'core.pager', join(shared, 'pager')], { cwd: shared });

    const sshLine = ['ssh', ...server.loginArgs(user.name)].map(shellWord).join(' ');
    await sshInto(client, paneId, sshLine);

    const step1 = `cd ${shared} && uname -n && false`;
    model.script(
      { parts: [{ text: 'Checking where I am.' }, { toolUse: { id: 'toolu_r1', name: 'run_command', input: { command: step1, purpose: 'which host' } } }] },
      { parts: [{ toolUse: { id: 'toolu_r2', name: 'run_command', input: { command: 'git status', purpose: 'repo state' } } }] },
      { parts: [{ text: 'Understood, on the remote host.' }] },
    );
    client.type(paneId, '# which machine is this pane on\r');
    const first = await model.waitForRequest(1);
    expect(requestText(first)).toContain('which machine is this pane on');
    const system = String(first.body?.system);
    expect(system).toContain(`Pane ${paneId} is on another host over ssh: ${host} (user ${user.name}, home /home/${user.name}, OS Linux`);
    expect(system).toContain(`login shell ${SHELLS.bash}`);
    expect(system).toContain(`cwd ${user.home} (a directory on ${host})`);
    expect(system).toContain('edit_file and write_file are refused in this pane');

    // The step asks (no policy), on the remote host, and runs there once approved.
    const proposed = await waitForStep(client, (s) => s.command === step1 && s.status === 'proposed' && s.approval !== undefined, 'the remote step judged');
    expect(proposed.approval).toMatchObject({ decision: 'ask', host });
    await client.request('agent.step', { planId: planIdOf(client), stepId: proposed.id, action: 'approve' });
    const block = await client.waitForBlock(paneId, step1);
    expect(block).toMatchObject({ exitCode: 1, host, user: user.name, cwd: user.home });
    const second = await model.waitForRequest(2);
    const [result] = toolResults(second);
    expect(result?.tool_use_id).toBe('toolu_r1');
    expect(result?.content).toContain('Exit code: 1');
    expect(result?.content).toContain(host);
    // The standing context follows the remote cwd.
    expect(String(second.body?.system)).toContain(`cwd ${shared} (a directory on ${host})`);

    // git status in the remote cwd, where a local repository with core.fsmonitor sits at the same path.
    const git = await waitForStep(client, (s) => s.command === 'git status' && s.status === 'proposed' && s.approval !== undefined, 'git status judged');
    expect(git.risk?.level).toBe('yellow');
    expect(git.risk?.reasons.join('\n')).toContain(`on ${host}: its git config is not readable from here`);
    expect(git.risk?.reasons.join('\n')).not.toContain('core.fsmonitor =');
    expect(git.approval).toMatchObject({ decision: 'ask', host });
    await client.request('agent.step', { planId: planIdOf(client), stepId: git.id, action: 'deny', reason: 'not now' });
    await waitForIdleWithAnswer(client, 'on the remote host');

    // The audit trail records where the steps ran.
    const auditFile = join(home, '.local/share/tandem/audit.jsonl');
    const audit = () => readFileSync(auditFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { event: string; command?: string; host?: string });
    await client.waitFor(() => audit().some((entry) => entry.event === 'denied' && entry.command === 'git status'), 10_000, 'the denial in the audit trail');
    for (const [event, command] of [['proposed', step1], ['approved', step1], ['executed', step1], ['proposed', 'git status'], ['denied', 'git status']]) {
      expect(audit().find((entry) => entry.event === event && entry.command === command)?.host, `${event} ${command}`).toBe(host);
    }

    // After logout the remote history has the step but never the instruction.
    client.type(paneId, 'exit\r');
    await client.waitForBlock(paneId, sshLine);
    const historyFile = join(user.home, '.bash_history');
    const history = existsSync(historyFile) ? readFileSync(historyFile, 'utf8') : '';
    expect(history).toContain('uname -n');
    expect(history).not.toContain('which machine');
    expect(client.eventsOf('block.finished').some((b) => b.command.includes('which machine'))).toBe(false);
  }, 180_000);
  it('`??` and `!auto` at the remote prompt go to the agent too; an auto run runs a GREEN step there unasked and a YELLOW one asks', async () => {
    const { client, model, paneId } = await open();
    server = await startSshServer({ users: [{ shell: SHELLS.bash }] });
    const user = server.users[0]!;
    const host = hostname();
    const sshLine = ['ssh', ...server.loginArgs(user.name)].map(shellWord).join(' ');
    await sshInto(client, paneId, sshLine);

    model.script({ parts: [{ text: 'It printed its host name.' }] });
    client.type(paneId, 'uname -n\r');
    await client.waitForBlock(paneId, 'uname -n');
    // Typed before the next prompt, `??` would be typed-ahead text, which is held back, not sent.
    await client.waitFor(() => client.eventsOf('pane.state').filter((s) => s.paneId === paneId).at(-1)?.state === 'PROMPT', 20_000, 'the remote prompt after uname -n');
    client.type(paneId, '?? what did that print\r');
    const question = await model.waitForRequest(1);
    expect(requestText(question)).toContain('what did that print');
    expect(String(question.body?.system)).toContain(`is on another host over ssh: ${host}`);
    await waitForIdleWithAnswer(client, 'host name');

    model.script(
      { parts: [{ toolUse: { id: 'a1', name: 'run_command', input: { command: 'uname -a', purpose: 'the system' } } }] },
      { parts: [{ toolUse: { id: 'a2', name: 'run_command', input: { command: 'touch made-by-auto', purpose: 'a file' } } }] },
      { parts: [{ text: 'Done on the host.' }] },
    );
    client.type(paneId, '!auto look at the system\r');
    const green = await waitForStep(client, (s) => s.command === 'uname -a' && s.status === 'done', 'the GREEN step run by auto');
    expect(green.decider).toMatchObject({ verdict: 'allowed', by: 'auto' });
    expect(green.approval?.host).toBe(host);
    const ran = client.eventsOf('block.finished').find((block) => block.command === 'uname -a');
    expect(ran).toMatchObject({ exitCode: 0, host, user: user.name });
    const yellow = await waitForStep(client, (s) => s.command === 'touch made-by-auto' && s.approval !== undefined, 'the YELLOW step judged');
    expect(yellow).toMatchObject({ status: 'proposed', approval: { decision: 'ask', host } });
    await client.waitFor(() => latest(client)?.status === 'awaiting-approval', 10_000, 'the run waiting for the user');
    expect(client.eventsOf('block.started').some((block) => block.command.includes('look at the system') || block.command === 'touch made-by-auto')).toBe(false);
  }, 180_000);
});
