import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import headless from '@xterm/headless';
import ptyModule, { type IPty } from 'node-pty';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentStreamEventSchema } from '../../../src/main/headless/agentStream';
import { AgentProcess, TANDEM_BIN, useAgentCli } from '../../support/agentCli';
import { remoteCommand, sshSkipReason, startSshServer, type SshServer } from '../../support/sshServer';
import { waitUntil } from '../../support/waitUntil';

// `ssh host tandem agent …` as a user runs it on a headless server: a real sshd on loopback
// (test/support/sshServer.ts), the real ssh client, `node bin/tandem.js agent` from this
// checkout on the far side, and the scripted model server reached from there over loopback.

const skip = sshSkipReason();
const { setup } = useAgentCli();
const run = (id: string, command: string) => ({ toolUse: { id, name: 'run_command', input: { command, purpose: `run ${command}` } } });
const agentCommand = (home: string, env: NodeJS.ProcessEnv, args: string[]) => remoteCommand(home, env, [process.execPath, TANDEM_BIN, 'agent', ...args]);

describe.skipIf(skip !== undefined)(`tandem agent over ssh${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: SshServer;
  const clients: ChildProcess[] = [];
  const terminals: IPty[] = [];
  beforeAll(async () => {
    server = await startSshServer();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(() => {
    for (const client of clients.splice(0)) if (client.exitCode === null && client.signalCode === null) client.kill('SIGKILL');
    for (const terminal of terminals.splice(0)) terminal.kill('SIGKILL');
  });

  /** `ssh -T host '…'`: no terminal on either side; what ssh prints is what the agent printed. */
  function sshT(remote: string, stdin: 'ignore' | 'open' | { piped: string } = 'ignore'): AgentProcess {
    const child = spawn('ssh', ['-T', ...server.clientArgs, remote], { stdio: [stdin === 'ignore' ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    clients.push(child);
    if (typeof stdin === 'object') child.stdin!.end(stdin.piped);
    return new AgentProcess(child);
  }

  describe('ssh -T: NDJSON', () => {
    it('streams the events as they come: session first, the step and its output, result last; ssh exits with the run status', async () => {
      const { model, env, home } = await setup();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      model.script({ parts: [run('t1', 'echo hello-over-ssh')], holdAfterEvents: 1, releaseWhen: released }, { parts: [{ text: 'It printed hello over ssh.' }] });
      const agent = sshT(agentCommand(home, env, ['--json', '-c', '# say hello']));
      // The first event comes through ssh while the model's answer is held back, not at the end.
      await agent.waitFor((event) => event.type === 'session', 'the session event');
      await model.waitForRequest(1);
      expect(agent.events.map((event) => event.type)).not.toContain('result');
      release();
      expect(await agent.exitCode()).toBe(0);
      const lines = agent.stdout.trim().split('\n');
      for (const line of lines) expect(AgentStreamEventSchema.safeParse(JSON.parse(line)).error).toBeUndefined();
      const types = agent.events.map((event) => event.type);
      expect(types[0]).toBe('session');
      expect(types.at(-1)).toBe('result');
      const stepAt = types.indexOf('step');
      const outputAt = agent.events.findIndex((event) => event.type === 'output' && String(event.text).includes('hello-over-ssh'));
      expect(stepAt).toBeGreaterThan(0);
      expect(outputAt).toBeGreaterThan(stepAt);
      expect(agent.events[0]).toMatchObject({ type: 'session', cwd: home, approve: 'policy' });
      expect(agent.events.at(-1)).toMatchObject({ type: 'result', is_error: false, exit_code: 0, result: 'It printed hello over ssh.' });
    }, 120_000);

    it('a step the policy would ask about is refused with nobody to ask, and ssh exits 3 as the agent did', async () => {
      const { model, env, home } = await setup();
      model.script({ parts: [run('t1', 'touch refused-over-ssh.txt')] }, { parts: [{ text: 'I was not allowed to make the file.' }] });
      const agent = sshT(agentCommand(home, env, ['--json', '-c', '# make a file']));
      expect(await agent.exitCode()).toBe(3);
      expect(agent.events.at(-1)).toMatchObject({ type: 'result', is_error: true, exit_code: 3, subtype: 'error_refused' });
      expect(existsSync(join(home, 'refused-over-ssh.txt'))).toBe(false);
    }, 120_000);

    it('goes on when the remote stdin stays open with nothing on it (ssh -T from a terminal, without -n)', async () => {
      const { model, env, home } = await setup();
      model.script({ parts: [{ text: 'Nothing was piped, and that is fine.' }] });
      // The local end of ssh's stdin is a pipe nobody writes to nor closes, as a terminal would be.
      const agent = sshT(agentCommand(home, env, ['--json', '-c', '# anything piped?']), 'open');
      expect(await agent.exitCode()).toBe(0);
      expect(agent.events.some((event) => event.type === 'instruction' && event.piped_bytes !== undefined)).toBe(false);
      expect(agent.events.at(-1)).toMatchObject({ type: 'result', exit_code: 0, result: 'Nothing was piped, and that is fine.' });
    }, 120_000);

    it('data piped into ssh reaches the agent on the far side as context', async () => {
      const { model, env, home } = await setup();
      model.script({ parts: [{ text: 'The disk is full.' }] });
      const piped = 'kernel: EXT4-fs error: disk-full-over-ssh\n';
      const agent = sshT(agentCommand(home, env, ['--json', '-c', '# any errors?']), { piped });
      expect(await agent.exitCode()).toBe(0);
      expect(agent.events.find((event) => event.type === 'instruction')).toMatchObject({ text: 'any errors?', piped_bytes: Buffer.byteLength(piped) });
      expect(model.requests[0]?.rawBody).toContain('disk-full-over-ssh');
    }, 120_000);
  });

  describe('ssh -t: the terminal form', () => {
    /** The local ssh client in a pty of its own, as from a terminal; the screen it shows, rendered. */
    function sshTty(remote: string, home: string) {
      const screen = new headless.Terminal({ cols: 120, rows: 50, scrollback: 1000, allowProposedApi: true });
      const raw: string[] = [];
      const terminal = ptyModule.spawn('ssh', ['-t', ...server.clientArgs, remote], {
        name: 'xterm-256color',
        cols: 120,
        rows: 50,
        cwd: home,
        env: { PATH: process.env.PATH, HOME: home, TERM: 'xterm-256color', LANG: 'C.UTF-8' },
      });
      terminals.push(terminal);
      let exit: number | undefined;
      terminal.onData((data) => {
        raw.push(data);
        screen.write(data);
      });
      terminal.onExit(({ exitCode }) => (exit = exitCode));
      const text = () => {
        const buffer = screen.buffer.active;
        const lines: string[] = [];
        for (let row = 0; row < buffer.length; row++) lines.push(buffer.getLine(row)?.translateToString(true) ?? '');
        return lines.join('\n');
      };
      const until = async (found: () => boolean, what: string) => {
        await waitUntil(() => found() || exit !== undefined, what, 60_000).catch((error: Error) => {
          throw new Error(`${error.message}; the screen:\n${text()}`);
        });
        // The screen is parsed a moment after the bytes came; give it the chance before judging.
        await new Promise<void>((resolve) => screen.write('', resolve));
        if (!found()) throw new Error(`ssh exited (${exit}) before ${what}; the screen:\n${text()}`);
      };
      const showing = (wanted: string | RegExp, what: string) => until(() => (typeof wanted === 'string' ? text().includes(wanted) : wanted.test(text())), what);
      return { terminal, text, raw, until, showing, exitCode: () => exit };
    }

    it('shows readable text, asks at the approval prompts through ssh, and runs the steps answered y', async () => {
      const { model, env, home } = await setup();
      model.script(
        { parts: [run('t1', 'echo green-over-ssh')] },
        { parts: [run('t2', 'touch made-over-ssh.txt')] },
        { parts: [{ text: 'Made the file over ssh.' }] },
      );
      const ssh = sshTty(agentCommand(home, env, ['-c', '# say hello, then make a file']), home);
      const prompts = () => ssh.text().split('Run it? [y]es / [n]o').length - 1;
      // At a terminal every step is asked about (--approve=ask), GREEN ones too.
      await ssh.showing(/\[GREEN\] echo green-over-ssh/, 'the GREEN step');
      await ssh.until(() => prompts() === 1, 'the first approval prompt');
      ssh.terminal.write('y');
      await ssh.showing(/│ green-over-ssh/, "the GREEN step's output");
      await ssh.showing(/\[YELLOW\] touch made-over-ssh\.txt/, 'the YELLOW step');
      await ssh.until(() => prompts() === 2, 'the second approval prompt');
      expect(existsSync(join(home, 'made-over-ssh.txt'))).toBe(false);
      ssh.terminal.write('y');
      await ssh.showing('Made the file over ssh.', 'the answer');
      await waitUntil(() => ssh.exitCode() !== undefined, 'ssh to exit', 60_000);
      expect(ssh.exitCode()).toBe(0);
      expect(existsSync(join(home, 'made-over-ssh.txt'))).toBe(true);
      // Text for a person, not the event stream.
      expect(ssh.raw.join('')).not.toMatch(/\{"type":/);
    }, 180_000);

    it('Ctrl+C at the local terminal reaches the agent: the running step is stopped and ssh exits 130', async () => {
      const { model, env, home } = await setup();
      // A duration nothing else on this machine sleeps for, to find the step's process by.
      const step = `sleep ${30 + (process.pid % 1000) / 1000}`;
      const stepRuns = () => spawnSync('pgrep', ['-x', '-f', step]).status === 0;
      model.script({ parts: [run('t1', step)] }, { parts: [{ text: 'Stopped.' }] });
      const ssh = sshTty(agentCommand(home, env, ['-c', '# wait a while']), home);
      await ssh.showing('Run it? [y]es / [n]o', 'the approval prompt');
      ssh.terminal.write('y');
      await waitUntil(stepRuns, `${step} to run on the far side`, 60_000);
      ssh.terminal.write('\x03');
      await waitUntil(() => ssh.exitCode() !== undefined, 'ssh to exit after Ctrl+C', 60_000);
      expect(ssh.exitCode()).toBe(130);
      expect(stepRuns()).toBe(false);
    }, 180_000);
  });
});
