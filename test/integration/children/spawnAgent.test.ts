import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAgentCli, type AgentEvent } from '../../support/agentCli';
import { waitUntil } from '../../support/waitUntil';
import { writeTandemFile } from '../../support/tandemFiles';

// spawn_agent from a headless parent: the built CLI, real shells in real ptys, the real SDK
// against the scripted model server (parent and child requests come in turn: the parent waits
// on its spawn step while the child works).

const { setup, start } = useAgentCli();
const STDIO = ['--approve=stdio', '--input-format', 'json'];
const spawnCall = (id: string, input: Record<string, unknown>) => ({ toolUse: { id, name: 'spawn_agent', input: { purpose: 'a sub-task', ...input } } });
const runCall = (id: string, command: string) => ({ toolUse: { id, name: 'run_command', input: { command, purpose: `run ${command}` } } });


const toolResultText = (body: unknown): string => JSON.stringify(body);

describe('spawn_agent (headless parent)', () => {
  it('starts a child through the gate; the child’s asking step bubbles up to the parent’s stdio; its answer is the tool result', async () => {
    const { model, env, home } = await setup();
    model.script(
      { parts: [{ text: 'Handing it to a child.' }, spawnCall('s1', { instruction: '# create child-file' })], usage: { inputTokens: 1000, outputTokens: 100 } },
      { parts: [runCall('c1', 'touch child-file')], usage: { inputTokens: 20_000, outputTokens: 2_000 } },
      { parts: [{ text: 'CHILD-ANSWER: created child-file.' }], usage: { inputTokens: 300_000, outputTokens: 30_000 } },
      { parts: [{ text: 'All done.' }], usage: { inputTokens: 4_000_000, outputTokens: 400_000 } },
    );
    const parent = start(STDIO, env, { stdin: 'pipe' });
    await parent.waitFor((event) => event.type === 'session', 'the session event');
    parent.send({ type: 'instruction', text: '# get child-file made by a child' });
    const spawnRequest = await parent.waitFor((event) => event.type === 'approval_request', 'the spawn step asks');
    expect(spawnRequest.command).toMatch(/ agent --parent \S+parent\.sock .*-c '# create child-file'$/);
    expect(spawnRequest.agent).toBeUndefined();
    parent.send({ type: 'approval', id: spawnRequest.id, decision: 'allow' });

    const childRequest = await parent.waitFor((event: AgentEvent) => event.type === 'approval_request' && event.agent !== undefined, "the child's step asks the parent");
    expect(childRequest).toMatchObject({ command: 'touch child-file', agent: { depth: 1, pid: expect.any(Number) } });
    expect(existsSync(join(home, 'child-file'))).toBe(false);
    parent.send({ type: 'approval', id: childRequest.id, decision: 'allow' });

    await parent.waitFor((event) => event.type === 'message' && event.text === 'All done.', 'the final answer', 120_000);
    parent.child.stdin!.end();
    expect(await parent.exitCode()).toBe(0);
    expect(existsSync(join(home, 'child-file'))).toBe(true);

    // The parent's model got the child's answer and what it did as the spawn step's result.
    const last = model.requests.at(-1)!;
    const result = toolResultText(last.body?.messages?.at(-1));
    expect(result).toContain('CHILD-ANSWER: created child-file.');
    expect(result).toContain('touch child-file');
    expect(result).toMatch(/Child agent \(depth 1, pid \d+\) finished, exit 0/);
    // The child's requests are its own conversation: its first request carries only its instruction.
    expect(JSON.stringify(model.requests[1]!.body?.messages)).not.toContain('get child-file made by a child');
    // Usage rolls up: the parent's totals count the child's two requests too.
    const final = parent.events.find((event) => event.type === 'result')!;
    expect(final.usage).toMatchObject({ input_tokens: 4_321_000, output_tokens: 432_100 });
  }, 180_000);

  it('refuses, before it starts, a child whose policy asks for what the parent’s policy denies', async () => {
    const { model, env } = await setup();
    writeTandemFile(env, 'policy.toml', '[approval.shell]\ndeny_patterns = ["rm *"]\n');
    model.script(
      { parts: [spawnCall('s1', { instruction: '# clean up', policy: '[approval.shell]\nallow_patterns = ["rm *"]' })] },
      { parts: [{ text: 'Understood.' }] },
    );
    const parent = start(['--approve=policy', '-c', '# clean up with a child'], env, { stdin: 'inherit-closed' });
    const decided = await parent.waitFor((event) => event.type === 'step' && event.phase === 'proposed', 'the spawn step judged');
    expect(decided).toMatchObject({ decision: 'deny' });
    expect(String(decided.rule)).toContain('the child asked to be allowed "rm *", which this agent\'s policy denies');
    await parent.exitCode();
    expect(model.requests).toHaveLength(2);
    expect(toolResultText(model.requests[1]!.body?.messages?.at(-1))).toContain('rm *');
  }, 120_000);

  it('is not offered past the depth limit, and a call made anyway is refused with the limit named', async () => {
    const { model, env } = await setup();
    writeTandemFile(env, 'config.toml', '[ai]\nmax_agent_depth = 2\n');
    model.script({ parts: [spawnCall('s1', { instruction: '# deeper' })] }, { parts: [{ text: 'OK.' }] });
    const parent = start(['--approve=policy', '-c', '# go deeper'], env, { stdin: 'inherit-closed', env: { TANDEM_AGENT_DEPTH: '2' } });
    const decided = await parent.waitFor((event) => event.type === 'step' && event.phase === 'proposed', 'the spawn step judged');
    expect(decided).toMatchObject({ decision: 'deny' });
    expect(String(decided.rule)).toContain('the depth limit is reached: a child here would be at depth 3, and [ai] max_agent_depth is 2');
    await parent.exitCode();
    const offered = (model.requests[0]!.body?.tools ?? []).map((tool) => tool.name);
    expect(offered).toContain('run_command');
    expect(offered).not.toContain('spawn_agent');
  }, 120_000);

  it("interrupting the parent's spawn step ends the child and its running step's process group", async () => {
    const { model, env } = await setup();
    const marker = `sleep ${900 + Math.floor(Math.random() * 99)}`;
    model.script({ parts: [spawnCall('s1', { instruction: '# wait a long time' })] }, { parts: [runCall('c1', `${marker}; echo never`)] }, { parts: [{ text: 'Stopped.' }] });
    const parent = start(STDIO, env, { stdin: 'pipe' });
    await parent.waitFor((event) => event.type === 'session', 'the session event');
    parent.send({ type: 'instruction', text: '# start a long child' });
    const spawnRequest = await parent.waitFor((event) => event.type === 'approval_request', 'the spawn step asks');
    parent.send({ type: 'approval', id: spawnRequest.id, decision: 'allow' });
    const childRequest = await parent.waitFor((event: AgentEvent) => event.type === 'approval_request' && event.agent !== undefined, "the child's step asks");
    const childPid = (childRequest.agent as { pid: number }).pid;
    parent.send({ type: 'approval', id: childRequest.id, decision: 'allow' });
    const running = () => spawnSync('pgrep', ['-f', `^${marker}`]).status === 0;
    await waitUntil(running, `the child's ${marker} is running`, 60_000);

    parent.send({ type: 'interrupt' });
    const ended = await parent.waitFor((event) => event.type === 'step' && event.phase === 'finished' && String(event.command).includes('--parent'), 'the spawn step ends', 60_000);
    expect(ended.status).toBe('failed');
    await waitUntil(() => !running(), `${marker} is gone`, 30_000);
    await waitUntil(() => spawnSync('kill', ['-0', String(childPid)]).status !== 0, 'the child agent is gone', 30_000);
    parent.child.stdin!.end();
    await parent.exitCode();
  }, 150_000);

  it("under --approve=policy the spawn runs where the policy names it, and the child's steps that ask are refused with the parent's mode named", async () => {
    const { model, env, home } = await setup();
    writeTandemFile(env, 'policy.toml', '[approval.shell]\nallow_patterns = ["* agent --parent *"]\n');
    model.script(
      { parts: [spawnCall('s1', { instruction: '# make refused-file' })] },
      { parts: [runCall('c1', 'touch refused-file')] },
      { parts: [{ text: 'I was not allowed.' }] },
      { parts: [{ text: 'The child could not.' }] },
    );
    const parent = start(['--approve=policy', '-c', '# have a child make a file'], env, { stdin: 'inherit-closed' });
    const relayed = await parent.waitFor((event: AgentEvent) => event.type === 'approval_request' && event.agent !== undefined, "the child's request, shown");
    expect(relayed.command).toBe('touch refused-file');
    await parent.waitFor((event) => event.type === 'message' && event.text === 'The child could not.', 'the final answer', 120_000);
    await parent.exitCode();
    expect(existsSync(join(home, 'refused-file'))).toBe(false);
    expect(JSON.stringify(model.requests[2]!.body?.messages?.at(-1))).toContain('The parent run (--approve=policy) refuses steps that ask.');
  }, 120_000);

  it('shares --budget-usd with the child: it gets what is left, its cost counts in the parent, and the parent stops when the tree spent it', async () => {
    const { model, env } = await setup();
    // claude-sonnet-5-5 at $3 / $15 per million tokens: each parent request costs $0.0045, the child's $0.06.
    const parentUsage = { inputTokens: 1_000, outputTokens: 100 };
    model.script(
      { parts: [runCall('p1', 'true')], usage: parentUsage },
      { parts: [spawnCall('s1', { instruction: '# an expensive sub-task' })], usage: parentUsage },
      { parts: [runCall('c1', 'touch never-made')], usage: { inputTokens: 20_000, outputTokens: 0 } },
      { parts: [{ text: 'Not reached.' }] },
    );
    const parent = start([...STDIO, '--budget-usd', '0.05'], env, { stdin: 'pipe' });
    await parent.waitFor((event) => event.type === 'session', 'the session event');
    parent.send({ type: 'instruction', text: '# spend it' });
    const first = await parent.waitFor((event) => event.type === 'approval_request', 'the first step asks');
    parent.send({ type: 'approval', id: first.id, decision: 'allow' });
    const spawnRequest = await parent.waitFor((event) => event.type === 'approval_request' && event.id !== first.id, 'the spawn step asks');
    // What was left when the spawn was proposed: $0.05 less the first request's $0.0045.
    expect(spawnRequest.command).toContain('--budget-usd 0.0455 ');
    parent.send({ type: 'approval', id: spawnRequest.id, decision: 'allow' });
    const result = await parent.waitFor((event) => event.type === 'result', 'the result', 120_000);
    expect(result.reason).toContain('--budget-usd 0.05 was reached');
    expect(result.total_cost_usd).toBeGreaterThanOrEqual(0.069);
    // The child stopped at its own share after one request; the parent asked nothing more.
    expect(model.requests).toHaveLength(3);
    parent.child.stdin!.end();
    await parent.exitCode();
  }, 120_000);

  it.each([true, false])('passes the session grants on only where [ai] pass_grants_to_children says so (%s)', async (passed) => {
    const { model, env } = await setup();
    writeTandemFile(env, 'config.toml', `[ai]\npass_grants_to_children = ${passed}\n`);
    model.script(
      { parts: [runCall('p1', 'touch shared.txt')] },
      { parts: [spawnCall('s1', { instruction: '# touch shared.txt' })] },
      { parts: [runCall('c1', 'touch shared.txt')] },
      { parts: [{ text: 'Touched it too.' }] },
      { parts: [{ text: 'Both touched it.' }] },
    );
    const parent = start(STDIO, env, { stdin: 'pipe' });
    await parent.waitFor((event) => event.type === 'session', 'the session event');
    parent.send({ type: 'instruction', text: '# touch shared.txt, then have a child touch it' });
    const first = await parent.waitFor((event) => event.type === 'approval_request', 'the first step asks');
    expect(first.session_grant).toBe(true);
    parent.send({ type: 'approval', id: first.id, decision: 'allow_session' });
    const spawnRequest = await parent.waitFor((event) => event.type === 'approval_request' && event.id !== first.id, 'the spawn step asks');
    parent.send({ type: 'approval', id: spawnRequest.id, decision: 'allow' });
    if (!passed) {
      const asked = await parent.waitFor((event: AgentEvent) => event.type === 'approval_request' && event.agent !== undefined, "the child's step asks: it has no grants");
      expect(asked.command).toBe('touch shared.txt');
      parent.send({ type: 'approval', id: asked.id, decision: 'allow' });
    }
    await parent.waitFor((event) => event.type === 'message' && event.text === 'Both touched it.', 'the final answer', 120_000);
    parent.child.stdin!.end();
    expect(await parent.exitCode()).toBe(0);
    // The child's step ran (its result went to its model); with the grants passed on, on the parent's grant: nobody was asked.
    expect(JSON.stringify(model.requests[3]!.body?.messages?.at(-1))).toContain('Exit code: 0');
    expect(parent.events.some((event) => event.type === 'approval_request' && event.agent !== undefined)).toBe(!passed);
  }, 120_000);
});
