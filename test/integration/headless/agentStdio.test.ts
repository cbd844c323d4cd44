import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAgentCli, type AgentEvent } from '../../support/agentCli';
import { invalidEvents } from '../../support/agentProtocol';
import { toolResults } from '../../support/agentConversation';
import { processesMatching } from '../../support/processes';

// `--approve=stdio --input-format json`: how a program embeds Tandem's agent — approval
// requests out as events, answers, instructions and interrupts in as NDJSON on stdin.

const { setup, start } = useAgentCli();
const run = (id: string, command: string) => ({ toolUse: { id, name: 'run_command', input: { command, purpose: `run ${command}` } } });
const STDIO = ['--approve', 'stdio', '--input-format', 'json'];

describe('tandem agent --approve=stdio', () => {
  it('approves, edits and denies steps by the ids of their requests; instructions come on stdin', async () => {
    const { model, env, home } = await setup();
    model.script(
      { parts: [run('a1', 'touch approved-file')] },
      { parts: [run('e1', 'touch proposed-name')] },
      { parts: [run('d1', 'touch denied-file')] },
      { parts: [{ text: 'Two files made, one refused.' }] },
    );
    const agent = start(STDIO, env, { stdin: 'pipe' });
    await agent.waitFor((event) => event.type === 'session', 'the session event');
    agent.send({ type: 'instruction', text: '# make some files' });

    const first = await agent.waitFor((event) => event.type === 'approval_request', 'the first approval request');
    expect(first).toMatchObject({ command: 'touch approved-file', kind: 'command', level: 'yellow', session_grant: true, rule: 'default: ask (no policy.toml allows it)' });
    agent.send({ type: 'approval', id: first.id, decision: 'allow' });

    const second = await agent.waitFor((event) => event.type === 'approval_request' && event.command === 'touch proposed-name', 'the second request');
    // An edit: the gate judges the new command; the same answer runs it.
    agent.send({ type: 'approval', id: second.id, decision: 'allow', command: 'touch edited-name' });

    const third = await agent.waitFor((event) => event.type === 'approval_request' && event.command === 'touch denied-file', 'the third request');
    agent.send({ type: 'approval', id: 'no-such-request', decision: 'allow' });
    await agent.waitFor((event) => event.type === 'error' && String(event.message).includes('no-such-request'), 'the error for an unknown id');
    agent.send({ type: 'approval', id: third.id, decision: 'deny', note: 'not that one' });

    await agent.waitFor((event) => event.type === 'message' && event.text === 'Two files made, one refused.', 'the answer');
    agent.child.stdin!.end();
    expect(await agent.exitCode()).toBe(3);
    expect(invalidEvents(agent.events)).toEqual([]);
    expect(existsSync(join(home, 'approved-file'))).toBe(true);
    expect(existsSync(join(home, 'edited-name'))).toBe(true);
    expect(existsSync(join(home, 'proposed-name'))).toBe(false);
    expect(existsSync(join(home, 'denied-file'))).toBe(false);
    const decided = agent.events.filter((event) => event.type === 'step' && event.phase === 'decided');
    expect(decided.map((event) => [event.command, event.verdict, event.decided_by])).toEqual([
      ['touch approved-file', 'allowed', 'you'],
      ['touch edited-name', 'allowed', 'you'],
      ['touch denied-file', 'denied', 'you'],
    ]);
    expect(toolResults(await model.waitForRequest(4))[0]).toMatchObject({ tool_use_id: 'd1', is_error: true, content: expect.stringContaining('not that one') });
    // The audit trail says who answered, and through which run.
    const audit = readFileSync(join(home, '.local/share/tandem/audit.jsonl'), 'utf8');
    expect(audit).toContain('"decidedBy":{"kind":"person","rule":"Allow once (tandem agent --approve=stdio)"}');
    expect(audit).toContain('"decidedBy":{"kind":"person","rule":"Deny (tandem agent --approve=stdio)"}');
  }, 120_000);

  it('an edit step asks with its diff and, once allowed, reports the file change', async () => {
    const { model, env, home } = await setup();
    writeFileSync(join(home, 'notes.txt'), 'one\ntwo\n');
    model.script({ parts: [{ toolUse: { id: 'w1', name: 'write_file', input: { path: 'notes.txt', content: 'one\nTWO\nthree\n' } } }] }, { parts: [{ text: 'Edited.' }] });
    const agent = start(STDIO, env, { stdin: 'pipe' });
    agent.send({ type: 'instruction', text: 'edit the notes' });
    const request = await agent.waitFor((event) => event.type === 'approval_request', 'the approval request');
    expect(request).toMatchObject({ kind: 'edit', path: join(home, 'notes.txt') });
    expect(String(request.diff)).toContain('-two\n+TWO\n+three');
    agent.send({ type: 'approval', id: request.id, decision: 'allow' });
    const change = await agent.waitFor((event) => event.type === 'file_change', 'the file change');
    expect(change).toMatchObject({ path: join(home, 'notes.txt'), creates: false, added: 2, removed: 1 });
    expect(readFileSync(join(home, 'notes.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    await agent.waitFor((event) => event.type === 'message', 'the answer');
    agent.child.stdin!.end();
    expect(await agent.exitCode()).toBe(0);
    expect(invalidEvents(agent.events)).toEqual([]);
  }, 120_000);

  it('an interrupt message stops the running step (Ctrl+C in its shell); the run goes on', async () => {
    const { model, env } = await setup();
    model.script({ parts: [run('s1', 'sleep 7171')] }, { parts: [{ text: 'Stopped.' }] });
    const agent = start(STDIO, env, { stdin: 'pipe' });
    agent.send({ type: 'instruction', text: 'wait a while' });
    const request = await agent.waitFor((event) => event.type === 'approval_request', 'the approval request');
    agent.send({ type: 'approval', id: request.id, decision: 'allow' });
    await agent.waitFor((event) => event.type === 'step' && event.phase === 'started', 'the step to start');
    await waitForProcess('sleep 7171');
    agent.send({ type: 'interrupt' });
    const finished = await agent.waitFor((event) => event.type === 'step' && event.phase === 'finished', 'the step to end');
    expect(finished).toMatchObject({ status: 'failed', exit_code: 130 });
    await agent.waitFor((event) => event.type === 'message' && event.text === 'Stopped.', 'the answer after it');
    agent.child.stdin!.end();
    expect(await agent.exitCode()).toBe(1);
    expect(processesMatching('sleep 7171')).toEqual([]);
  }, 120_000);

  it('stdin closing while a request waits denies it (nobody can answer any more) and the run ends with 3', async () => {
    const { model, env, home } = await setup();
    model.script({ parts: [run('w1', 'touch never-made')] }, { parts: [{ text: 'Nobody answered.' }] });
    const agent = start(STDIO, env, { stdin: 'pipe' });
    agent.send({ type: 'instruction', text: 'make it' });
    await agent.waitFor((event) => event.type === 'approval_request', 'the approval request');
    agent.child.stdin!.end();
    expect(await agent.exitCode()).toBe(3);
    expect(existsSync(join(home, 'never-made'))).toBe(false);
    expect(agent.events.find((event) => event.type === 'step' && event.phase === 'decided')).toMatchObject({ verdict: 'denied' });
    expect(toolResults(await model.waitForRequest(2))[0]).toMatchObject({ is_error: true, content: expect.stringContaining('stdin closed before an answer came') });
  }, 120_000);

  it('a line that is not a message is reported and skipped; the run goes on', async () => {
    const { model, env } = await setup();
    model.script({ parts: [{ text: 'hi' }] });
    const agent = start(STDIO, env, { stdin: 'pipe' });
    agent.child.stdin!.write('this is not json\n{"type":"approval"}\n');
    agent.send({ type: 'instruction', text: 'hello' });
    await agent.waitFor((event: AgentEvent) => event.type === 'message', 'the answer');
    agent.child.stdin!.end();
    expect(await agent.exitCode()).toBe(0);
    const errors = agent.events.filter((event) => event.type === 'error').map((event) => event.message);
    expect(errors).toEqual([expect.stringContaining('Not a line of JSON: this is not json'), expect.stringContaining('Not a message tandem agent takes')]);
  }, 120_000);
});

async function waitForProcess(commandLine: string): Promise<void> {
  const until = Date.now() + 30_000;
  while (processesMatching(commandLine).length === 0) {
    if (Date.now() > until) throw new Error(`no process ${commandLine} appeared`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
