import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadPort } from '../../support/deadPort';
import { processesMatching } from '../../support/processes';
import { shellTimeout } from '../../support/shellTimeout';
import { TANDEM_BIN, useAgentCli } from '../../support/agentCli';
import { writeTandemFile } from '../../support/tandemFiles';

// `tandem trace` on the traces.jsonl of real `tandem agent` runs (the built CLI, its own bash in
// its own pty, the real SDKs against the scripted model server), and the spans those runs write
// for steps that never ran and for a backend fallback.

const { setup, start } = useAgentCli();
const STDIO = ['--approve=stdio', '--input-format', 'json'];
const run = (id: string, command: string) => ({ toolUse: { id, name: 'run_command', input: { command, purpose: `run ${command}` } } });

type SpanLine = { trace_id: string; span_id: string; parent_span: string | null; name: string; pid: number; attributes: Record<string, unknown>; events?: { name: string; attributes?: Record<string, unknown> }[] } & Record<string, unknown>;
type TreeNode = SpanLine & { other_process: boolean; children: TreeNode[] };

const traceFile = (env: NodeJS.ProcessEnv) => join(env.XDG_STATE_HOME!, 'tandem', 'traces.jsonl');
const spans = (env: NodeJS.ProcessEnv): SpanLine[] =>
  readFileSync(traceFile(env), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SpanLine);

function tandemTrace(args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, [TANDEM_BIN, 'trace', ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function waitForProcess(commandLine: string): Promise<void> {
  const until = Date.now() + shellTimeout(30_000);
  while (processesMatching(commandLine).length === 0) {
    if (Date.now() > until) throw new Error(`no process ${commandLine} appeared`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}


describe('tandem trace', () => {
  it('lists and shows the tree of a run with a child agent, and steps that did not run with who decided', async () => {
    const { model, env } = await setup();
    writeTandemFile(env, 'policy.toml', '[approval.shell]\ndeny_patterns = ["touch refused-*"]\n');
    const childCommand = `node ${TANDEM_BIN} agent -c 'child task' </dev/null`;
    model.script(
      { parts: [run('c1', childCommand), run('d1', 'touch denied-by-you')] },
      { parts: [{ text: 'Child answer.' }] },
      { parts: [run('p1', 'touch refused-by-policy')] },
      { parts: [{ text: 'All done.' }] },
    );
    const parent = start(STDIO, env, { stdin: 'pipe' });
    const session = await parent.waitFor((event) => event.type === 'session', 'the session event');
    parent.send({ type: 'instruction', text: 'start a child' });
    const first = await parent.waitFor((event) => event.type === 'approval_request', 'the first approval request');
    parent.send({ type: 'approval', id: first.id, decision: 'allow' });
    const index = parent.events.indexOf(first) + 1;
    const second = await parent.waitFor((event) => event.type === 'approval_request', 'the second approval request', 90_000, index);
    parent.send({ type: 'approval', id: second.id, decision: 'deny' });
    await parent.waitFor((event) => event.type === 'message' && event.text === 'All done.', 'the final answer', 90_000);
    parent.child.stdin!.end();
    await parent.exitCode();

    // The steps that did not run have spans that say so, and who decided.
    const lines = spans(env);
    const steps = lines.filter((span) => span.name === 'execute_tool run_command' && span.pid === parent.child.pid);
    const byCall = (id: string) => steps.find((span) => span.attributes['gen_ai.tool.call.id'] === id)!;
    expect(byCall('c1')).toMatchObject({ exit: 0, approval: 'you', attributes: { 'tandem.step.status': 'done', 'tandem.approval.decision': 'ask', 'tandem.approval.wait_ms': expect.any(Number), 'tandem.step.run_ms': expect.any(Number) } });
    expect(byCall('d1')).toMatchObject({ approval: 'you', attributes: { 'tandem.step.status': 'denied', 'tandem.approval.by': 'you', 'tandem.approval.wait_ms': expect.any(Number) } });
    expect(byCall('d1').events).toContainEqual(expect.objectContaining({ name: 'approval', attributes: expect.objectContaining({ 'tandem.approval.verdict': 'denied', 'tandem.approval.by': 'you' }) }));
    expect(byCall('p1')).toMatchObject({ approval: 'policy', attributes: { 'tandem.step.status': 'denied', 'tandem.approval.decision': 'deny' } });
    expect(byCall('p1').attributes['tandem.approval.wait_ms']).toBeUndefined();
    expect(byCall('d1').exit).toBeUndefined();

    // A corrupt line is skipped and counted, never fatal.
    appendFileSync(traceFile(env), '{"trace_id": "cut off\n');
    const listed = tandemTrace(['list', '--json'], env);
    expect(listed.code).toBe(0);
    const { traces, skipped_lines } = JSON.parse(listed.stdout) as { traces: Record<string, unknown>[]; skipped_lines: number };
    expect(skipped_lines).toBe(1);
    expect(traces).toHaveLength(1);
    expect(traces[0]).toMatchObject({ trace_id: session.trace_id, result: 'success', steps: 3, steps_not_run: 2, processes: 2, tokens_in: expect.any(Number) });
    expect(traces[0]!.tokens_in).toBeGreaterThan(0);
    expect(traces[0]!.instruction).toBeUndefined();
    const text = tandemTrace(['list'], env);
    expect(text.stdout).toContain(String(session.trace_id));
    expect(text.stderr).toContain('skipped 1 line');

    const prefix = String(session.trace_id).slice(0, 8);
    const shown = tandemTrace(['show', prefix, '--json'], env);
    expect(shown.code).toBe(0);
    const tree = JSON.parse(shown.stdout) as { trace_id: string; spans: TreeNode[] };
    expect(tree.trace_id).toBe(session.trace_id);
    const root = tree.spans.find((node) => node.name === 'invoke_agent' && node.pid === parent.child.pid)!;
    const childStep = root.children.find((node) => node.span_id === byCall('c1').span_id)!;
    const childRoot = childStep.children.find((node) => node.name === 'invoke_agent')!;
    expect(childRoot).toMatchObject({ other_process: true, result: 'success' });
    expect(childRoot.pid).not.toBe(parent.child.pid);
    expect(childRoot.children.map((node) => node.name)).toEqual(['chat claude-sonnet-5-5']);
    expect(root.children.filter((node) => node.name.startsWith('chat ')).length).toBe(3);

    const drawn = tandemTrace(['show', prefix], env);
    expect(drawn.stdout).toMatch(new RegExp(`invoke_agent .*child agent, pid ${childRoot.pid} on `));
    expect(drawn.stdout).toMatch(/execute_tool run_command {2}step 2 {2}denied .*denied by you after/);
    expect(drawn.stdout).toMatch(/execute_tool run_command {2}step 1 {2}denied .*denied by policy/);

    // Clear errors.
    expect(tandemTrace(['show', 'ffffffff'], env)).toMatchObject({ code: 1, stderr: expect.stringContaining('no trace ffffffff') });
    appendFileSync(traceFile(env), `${JSON.stringify({ ...lines[0], trace_id: `${prefix}${'0'.repeat(24)}` })}\n`);
    expect(tandemTrace(['show', prefix], env)).toMatchObject({ code: 1, stderr: expect.stringContaining(`${prefix} is the start of 2 traces`) });
    const nowhere = { ...env, XDG_STATE_HOME: join(env.HOME!, 'no-state') };
    expect(tandemTrace(['list'], nowhere)).toMatchObject({ code: 1, stderr: expect.stringContaining('does not exist yet') });
  }, 180_000);

  it('a step beyond --max-steps, and a call with invalid input, have spans that say they were refused', async () => {
    const { model, env } = await setup();
    const invalid = { toolUse: { id: 'bad1', name: 'run_command', input: { purpose: 'no command given' } } };
    model.script({ parts: [run('g1', 'echo first'), run('g2', 'echo second'), invalid] }, { parts: [{ text: 'Only one ran.' }] });
    await start(['--max-steps', '1', '-c', 'two echoes'], env, { stdin: 'inherit-closed' }).exitCode();
    const second = spans(env).find((span) => span.attributes['gen_ai.tool.call.id'] === 'g2')!;
    // A call whose input was invalid never became a step; its span says it was refused.
    expect(spans(env).find((span) => span.attributes['gen_ai.tool.call.id'] === 'bad1')).toMatchObject({ name: 'execute_tool run_command', attributes: { 'tandem.step.status': 'refused' } });
    expect(second).toMatchObject({ name: 'execute_tool run_command', attributes: { 'tandem.step.status': 'denied', 'tandem.step.beyond_limit': true } });
    expect(second.events?.find((event) => event.name === 'approval')?.attributes?.['tandem.approval.rule']).toContain('limit of 1 step');
  }, 120_000);

  it('a step stopped while it runs, and the one after it that never ran, have spans that say so', async () => {
    const { model, env } = await setup();
    model.script({ parts: [run('s1', 'sleep 7373'), run('s2', 'echo never-runs')] }, { parts: [{ text: 'Stopped.' }] });
    const agent = start(STDIO, env, { stdin: 'pipe' });
    await agent.waitFor((event) => event.type === 'session', 'the session event');
    agent.send({ type: 'instruction', text: 'sleep then echo' });
    const request = await agent.waitFor((event) => event.type === 'approval_request', 'the approval request');
    agent.send({ type: 'approval', id: request.id, decision: 'allow' });
    await agent.waitFor((event) => event.type === 'step' && event.phase === 'started', 'the sleep to start');
    await waitForProcess('sleep 7373');
    agent.send({ type: 'interrupt' });
    await agent.waitFor((event) => event.type === 'message' && event.text === 'Stopped.', 'the answer after it', 60_000);
    agent.child.stdin!.end();
    await agent.exitCode();
    const byCall = (id: string) => spans(env).find((span) => span.attributes['gen_ai.tool.call.id'] === id);
    expect(byCall('s1')?.attributes['tandem.step.status']).toMatch(/^(failed|skipped)$/);
    expect(byCall('s2')).toMatchObject({ name: 'execute_tool run_command', attributes: { 'tandem.step.status': 'skipped' } });
    expect(byCall('s2')?.exit).toBeUndefined();
  }, 120_000);

  it('records a backend fallback on the chat spans, and the root names the backend that answered', async () => {
    const { model, env } = await setup();
    writeTandemFile(env, 'config.toml', `[[ai.fallback]]\nbackend = "openai-compatible"\nbase_url = "${model.url}/v1"\nmodel = "llama3"\napi_key_env = "LOCAL_MODEL_KEY"\n`);
    model.script({ parts: [{ text: 'The fallback answered.' }] });
    const agent = start(['-c', 'hello'], { ...env, ANTHROPIC_BASE_URL: `http://127.0.0.1:${await deadPort()}`, LOCAL_MODEL_KEY: 'sk-local-test' }, { stdin: 'inherit-closed' });
    expect(await agent.exitCode(90_000)).toBe(0);
    const lines = spans(env);
    const failed = lines.find((span) => span.name === 'chat claude-sonnet-5-5')!;
    const answered = lines.find((span) => span.name === 'chat llama3')!;
    expect(failed).toMatchObject({ status: 'error', attributes: { 'error.type': expect.any(String), 'tandem.fallback.to': 'openai-compatible llama3' } });
    expect(answered).toMatchObject({ status: 'ok', parent_span: failed.parent_span, attributes: { 'tandem.fallback.from': 'anthropic claude-sonnet-5-5', 'gen_ai.provider.name': 'openai' } });
    expect(lines.find((span) => span.name === 'invoke_agent')).toMatchObject({ backend: 'openai-compatible', model: 'llama3', result: 'success', attributes: { 'gen_ai.request.model': 'llama3' } });
    expect(tandemTrace(['show', failed.trace_id], env).stdout).toMatch(/chat claude-sonnet-5-5 {2}failed .*fell back to openai-compatible llama3/);
  }, 120_000);
});
