import { existsSync } from 'node:fs';
import { join } from 'node:path';
import ptyModule from 'node-pty';
import type { IPty } from 'node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { TANDEM_BIN, useAgentCli } from '../../support/agentCli';
import { processesMatching } from '../../support/processes';
import { shellTimeout } from '../../support/shellTimeout';

// `tandem agent` at a terminal: its stdout and controlling terminal are a real pty (node-pty),
// as when a person types it. Readable text, the inline approval prompt, Ctrl+C.

const { setup } = useAgentCli();
const run = (id: string, command: string) => ({ toolUse: { id, name: 'run_command', input: { command, purpose: `run ${command}` } } });
const terminals: IPty[] = [];
afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.kill('SIGKILL');
});

/** The agent in a pty (`pipedFrom`: a shell command whose output is piped into its stdin); `screen` is everything it printed, colours removed. */
function atTerminal(args: string[], env: NodeJS.ProcessEnv, pipedFrom?: string) {
  const quoted = [process.execPath, TANDEM_BIN, 'agent', ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  const [file, argv] = pipedFrom ? ['/bin/sh', ['-c', `${pipedFrom} | ${quoted}`]] : [process.execPath, [TANDEM_BIN, 'agent', ...args]];
  const terminal = ptyModule.spawn(file, argv, { name: 'xterm-256color', cols: 120, rows: 40, cwd: env.HOME, env: env as Record<string, string> });
  terminals.push(terminal);
  let text = '';
  terminal.onData((data) => (text += data));
  const exit = new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
  const plain = () => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  async function until(predicate: (screen: string) => boolean, what: string): Promise<void> {
    const deadline = Date.now() + shellTimeout(30_000);
    while (!predicate(plain())) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; the terminal shows:\n${plain()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { terminal, screen: plain, until, exit };
}

describe('tandem agent at a terminal', () => {
  it('prints readable text, asks inline before a YELLOW step ([y]es / [n]o …), and runs it on y', async () => {
    const { model, env, home } = await setup();
    model.script({ parts: [{ text: 'I will make the file.' }, run('y1', 'touch from-the-terminal; echo made-it')] }, { parts: [{ text: 'The file is there.' }] });
    const agent = atTerminal(['-c', '# make a file'], env);
    await agent.until((screen) => screen.includes('Run it? [y]es / [n]o / [a]lways this session / [e]dit / [q]uit'), 'the approval prompt');
    expect(agent.screen()).toContain('I will make the file.');
    expect(agent.screen()).toContain('[YELLOW] touch from-the-terminal; echo made-it');
    expect(agent.screen()).not.toContain('{"type"');
    agent.terminal.write('y');
    expect(await agent.exit).toBe(0);
    expect(existsSync(join(home, 'from-the-terminal'))).toBe(true);
    expect(agent.screen()).toMatch(/│ made-it/);
    expect(agent.screen()).toMatch(/✓ exit 0/);
    expect(agent.screen()).toContain('The file is there.');
  }, 120_000);

  it('with data piped into stdin, the question is still asked at the controlling terminal', async () => {
    const { model, env, home } = await setup();
    model.script({ parts: [run('p1', 'touch answered-at-the-terminal')] }, { parts: [{ text: 'Made it.' }] });
    const agent = atTerminal(['-c', '# look at this log'], env, "printf 'log line one\\nlog line two\\n'");
    await agent.until((screen) => screen.includes('Run it?'), 'the approval prompt');
    agent.terminal.write('y');
    expect(await agent.exit).toBe(0);
    expect(existsSync(join(home, 'answered-at-the-terminal'))).toBe(true);
    expect(JSON.stringify((await model.waitForRequest(1)).body?.messages)).toContain('log line one');
  }, 120_000);

  it('[e]dit: the edited command is judged again and runs in place of the proposed one', async () => {
    const { model, env, home } = await setup();
    model.script({ parts: [run('e1', 'touch proposed')] }, { parts: [{ text: 'ok' }] });
    const agent = atTerminal(['-c', 'make a file'], env);
    await agent.until((screen) => screen.includes('Run it?'), 'the approval prompt');
    agent.terminal.write('e');
    await agent.until((screen) => screen.includes('Command: touch proposed'), 'the edit line');
    agent.terminal.write('\x15touch edited\r');
    // Judged again: still YELLOW, so it asks again, about the edited command.
    await agent.until((screen) => screen.includes('[YELLOW] touch edited'), 'the question about the edited command');
    agent.terminal.write('y');
    expect(await agent.exit).toBe(0);
    expect(existsSync(join(home, 'edited'))).toBe(true);
    expect(existsSync(join(home, 'proposed'))).toBe(false);
  }, 120_000);

  it('Ctrl+C during a step kills its process group and exits 130, leaving no process behind', async () => {
    const { model, env } = await setup();
    model.script({ parts: [run('s1', 'sleep 7272 | sleep 7273')] }, { parts: [{ text: 'never' }] });
    const agent = atTerminal(['-c', 'wait'], env);
    await agent.until((screen) => screen.includes('Run it?'), 'the approval prompt');
    agent.terminal.write('y');
    const deadline = Date.now() + shellTimeout(30_000);
    while (processesMatching('sleep 7272').length === 0) {
      if (Date.now() > deadline) throw new Error('the step did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    agent.terminal.write('\x03');
    expect(await agent.exit).toBe(130);
    expect(agent.screen()).toMatch(/interrupted \(SIGINT\)/);
    expect(processesMatching('sleep 7272')).toEqual([]);
    expect(processesMatching('sleep 7273')).toEqual([]);
  }, 120_000);

  it('Ctrl+C at the approval prompt interrupts the run (exit 130), runs nothing and prints no internal error', async () => {
    const { model, env, home } = await setup();
    model.script({ parts: [run('c1', 'touch never-made')] }, { parts: [{ text: 'never' }] });
    const agent = atTerminal(['-c', 'make a file'], env);
    await agent.until((screen) => screen.includes('Run it?'), 'the approval prompt');
    agent.terminal.write('\x03');
    expect(await agent.exit).toBe(130);
    expect(agent.screen()).toMatch(/\[q\]uit \^C/);
    expect(agent.screen()).toMatch(/interrupted \(SIGINT\)/);
    expect(agent.screen()).not.toMatch(/tandem agent: Step/);
    expect(existsSync(join(home, 'never-made'))).toBe(false);
    expect(model.requests).toHaveLength(1);
  }, 120_000);

  it("a child agent's step that asks is asked here too, saying which child asks (spawn_agent under --approve=ask)", async () => {
    const { model, env, home } = await setup();
    model.script(
      { parts: [{ toolUse: { id: 's1', name: 'spawn_agent', input: { instruction: '# make child-made', purpose: 'a child' } } }] },
      { parts: [run('c1', 'touch child-made')] },
      { parts: [{ text: 'Child made it.' }] },
      { parts: [{ text: 'The child made it.' }] },
    );
    const agent = atTerminal(['-c', '# have a child make a file'], env);
    await agent.until((screen) => screen.includes('Run it?'), 'the question about the spawn step');
    expect(agent.screen()).toMatch(/agent --parent \S+ .*-c '# make child-made'/);
    agent.terminal.write('y');
    await agent.until((screen) => /Child agent \(depth 1, pid \d+\) asks: \[YELLOW\] touch child-made/.test(screen), "the child's question");
    await agent.until((screen) => screen.split('Run it?').length === 3, 'the second prompt');
    expect(existsSync(join(home, 'child-made'))).toBe(false);
    agent.terminal.write('y');
    expect(await agent.exit).toBe(0);
    expect(existsSync(join(home, 'child-made'))).toBe(true);
    expect(agent.screen()).toContain('The child made it.');
  }, 120_000);
});
