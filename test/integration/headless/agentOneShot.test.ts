import { describe, expect, it } from 'vitest';
import { useAgentCli } from '../../support/agentCli';

const { setup, start } = useAgentCli();
const run = (id: string, command: string) => ({ toolUse: { id, name: 'run_command', input: { command, purpose: `run ${command}` } } });

describe('tandem agent -c, piped (NDJSON)', () => {
  it('runs a GREEN step in its own shell, streams its output and ends with the result line', async () => {
    const { model, env } = await setup();
    model.script({ parts: [run('t1', 'echo hello-from-step')] }, { parts: [{ text: 'It printed hello.' }] });
    const agent = start(['-c', '# say hello'], env, { stdin: 'inherit-closed' });
    expect(await agent.exitCode()).toBe(0);
    const types = agent.events.map((event) => event.type);
    expect(types[0]).toBe('session');
    expect(types.at(-1)).toBe('result');
    expect(agent.events.find((event) => event.type === 'output')?.text).toContain('hello-from-step');
    expect(agent.events.at(-1)).toMatchObject({ type: 'result', is_error: false, exit_code: 0, result: 'It printed hello.' });
  }, 90_000);
});
