import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { tandemPaths } from '../../../src/main/settings/paths';
import { useAgentCli } from '../../support/agentCli';
import { storedRecords } from '../../support/historyRecords';

// `tandem agent` (the built CLI, its own bash in its own pty, the scripted model server) records
// its steps in the same history database as the app, marked as the agent's.

const { setup, start } = useAgentCli();
const run = (id: string, command: string) => ({ toolUse: { id, name: 'run_command', input: { command, purpose: `run ${command}` } } });

describe('a headless agent run and the block history', () => {
  it("records its step as an agent step, with the gate's decision; a child agent's step as the child's", async () => {
    const { model, env, home } = await setup();
    model.script({ parts: [run('t1', 'echo from-headless-step')] }, { parts: [{ text: 'Done.' }] });
    const agent = start(['-c', '# say hello'], env, { stdin: 'inherit-closed' });
    expect(await agent.exitCode()).toBe(0);

    const file = tandemPaths(env).historyFile;
    const [record] = storedRecords(file);
    expect(record).toMatchObject({
      command: 'echo from-headless-step',
      author: 'agent-step',
      decision: 'allowed by headless',
      exitCode: 0,
      shell: 'bash',
      cwd: home,
      host: hostname(),
    });
    expect(record!.outputDigest).toContain('from-headless-step');

    model.script({ parts: [run('c1', 'echo from-child-step')] }, { parts: [{ text: 'Done.' }] });
    const child = start(['-c', '# say hello'], env, { stdin: 'inherit-closed', env: { TANDEM_AGENT_DEPTH: '1' } });
    expect(await child.exitCode()).toBe(0);
    const records = storedRecords(file);
    expect(records.map((stored) => [stored.command, stored.author])).toEqual([
      ['echo from-child-step', 'child-agent'],
      ['echo from-headless-step', 'agent-step'],
    ]);
    // Two runs, two sessions.
    expect(new Set(records.map((stored) => stored.session)).size).toBe(2);
  }, 120_000);
});
