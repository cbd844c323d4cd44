import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAgentCli } from '../../support/agentCli';

const { setup, start } = useAgentCli();
const run = (id: string, command: string) => ({ toolUse: { id, name: 'run_command', input: { command, purpose: `run ${command}` } } });

describe('tandem agent -c --approve=stdio --input-format json', () => {
  it("takes the approval of the -c instruction's step from stdin while that instruction runs", async () => {
    const { model, env, home } = await setup();
    model.script({ parts: [run('t1', 'touch approved-file')] }, { parts: [{ text: 'Created it.' }] });
    const agent = start(['--approve=stdio', '--input-format', 'json', '-c', '# create approved-file'], env, { stdin: 'pipe' });
    const request = await agent.waitFor((event) => event.type === 'approval_request', 'the approval request');
    expect(request).toMatchObject({ command: 'touch approved-file' });
    agent.send({ type: 'approval', id: request.id, decision: 'allow' });
    await agent.waitFor((event) => event.type === 'message' && event.text === 'Created it.', 'the final answer');
    agent.child.stdin!.end();
    expect(await agent.exitCode()).toBe(0);
    expect(agent.events.find((event) => event.type === 'step' && event.phase === 'finished')).toMatchObject({ command: 'touch approved-file', status: 'done' });
    expect(existsSync(join(home, 'approved-file'))).toBe(true);
  }, 90_000);
});
