import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TANDEM_BIN, useAgentCli, type AgentEvent } from '../../support/agentCli';
import { shellWord, sshSkipReason, startSshServer, type SshServer } from '../../support/sshServer';
import { readSpanLines } from '../../support/tandemFiles';

// A tree of agents in one trace: a headless parent spawns a child (spawn_agent); the child runs a
// `tandem agent` on "another host" over a real ssh to loopback (the trace variables passed with
// an explicit `env` prefix) and spawns a grandchild of its own. Every process's spans land in
// the one JSONL file (same user, same $XDG_STATE_HOME) with the right parent links.

const skip = sshSkipReason();
const { setup, start } = useAgentCli();
const STDIO = ['--approve=stdio', '--input-format', 'json'];


describe.skipIf(skip !== undefined)(`child agents in one trace${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: SshServer;
  beforeAll(async () => {
    server = await startSshServer();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('parent → child (spawn_agent) → grandchild over ssh and grandchild (spawn_agent): one trace, parent links across the processes', async () => {
    const { model, env, home } = await setup();
    const passed = ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY'].map((name) => shellWord(`${name}=${env[name]}`));
    // Typed by the child's model as a step: its shell expands the trace variables it was given for this step.
    const overSsh = `ssh ${server.clientArgs.map(shellWord).join(' ')} "cd ${home} && env ${passed.join(' ')} TRACEPARENT=$TRACEPARENT TANDEM_TRACE_DEPTH=$TANDEM_TRACE_DEPTH ${process.execPath} ${TANDEM_BIN} agent --approve=policy -c '# remote part'"`;
    model.script(
      { parts: [{ toolUse: { id: 'p1', name: 'spawn_agent', input: { instruction: '# split the work', purpose: 'a child' } } }] },
      {
        parts: [
          { toolUse: { id: 'c1', name: 'run_command', input: { command: overSsh, purpose: 'the remote part' } } },
          { toolUse: { id: 'c2', name: 'spawn_agent', input: { instruction: '# the local part', purpose: 'a grandchild' } } },
        ],
      },
      { parts: [{ text: 'REMOTE-DONE' }] },
      { parts: [{ toolUse: { id: 'g1', name: 'run_command', input: { command: 'echo from-grandchild', purpose: 'say hi' } } }] },
      { parts: [{ text: 'GRANDCHILD-DONE' }] },
      { parts: [{ text: 'CHILD-DONE' }] },
      { parts: [{ text: 'PARENT-DONE' }] },
    );
    const parent = start(STDIO, env, { stdin: 'pipe' });
    const session = await parent.waitFor((event) => event.type === 'session', 'the session');
    parent.send({ type: 'instruction', text: '# do it with helpers' });
    const answered = new Set<string>();
    const asked: AgentEvent[] = [];
    // Every step that asks, the parent's own and the ones bubbling up from below, is allowed here.
    while (!parent.events.some((event) => event.type === 'message' && event.text === 'PARENT-DONE')) {
      const request = await parent.waitFor((event) => (event.type === 'approval_request' && !answered.has(String(event.id))) || (event.type === 'message' && event.text === 'PARENT-DONE'), 'the next approval or the end', 150_000);
      if (request.type !== 'approval_request') break;
      answered.add(String(request.id));
      asked.push(request);
      parent.send({ type: 'approval', id: request.id, decision: 'allow' });
    }
    parent.child.stdin!.end();
    expect(await parent.exitCode()).toBe(0);
    // Who asked: the parent's spawn, the child's ssh step and spawn (depth 1), the grandchild's echo (depth 2).
    expect(asked.map((request) => [request.command, (request.agent as { depth: number } | undefined)?.depth])).toEqual([
      [expect.stringContaining(' agent --parent '), undefined],
      [expect.stringContaining('ssh '), 1],
      [expect.stringContaining(' agent --parent '), 1],
      ['echo from-grandchild', 2],
    ]);
    const childPid = (asked[1]!.agent as { pid: number }).pid;
    const grandchildPid = (asked[3]!.agent as { pid: number }).pid;

    const spans = readSpanLines(env);
    expect(new Set(spans.map((span) => span.trace_id))).toEqual(new Set([session.trace_id]));
    const byPid = (pid: number) => spans.filter((span) => span.pid === pid);
    const spawnSpan = byPid(parent.child.pid!).find((span) => span.name === 'execute_tool spawn_agent')!;
    const childRoot = byPid(childPid).find((span) => span.name === 'invoke_agent')!;
    expect(childRoot.parent_span).toBe(spawnSpan.span_id);
    const childSsh = byPid(childPid).find((span) => span.name === 'execute_tool run_command')!;
    const childSpawn = byPid(childPid).find((span) => span.name === 'execute_tool spawn_agent')!;
    expect(childSsh.parent_span).toBe(childRoot.span_id);
    const grandchildRoot = byPid(grandchildPid).find((span) => span.name === 'invoke_agent')!;
    expect(grandchildRoot.parent_span).toBe(childSpawn.span_id);
    expect(grandchildRoot.attributes['tandem.trace.depth']).toBe(2);
    // The one over ssh: another process, its root under the child's ssh step.
    const remoteRoot = spans.find((span) => span.name === 'invoke_agent' && span.parent_span === childSsh.span_id)!;
    expect(remoteRoot).toBeDefined();
    expect([parent.child.pid, childPid, grandchildPid]).not.toContain(remoteRoot.pid);
    expect(remoteRoot.attributes['tandem.trace.depth']).toBe(2);
    // The parent's model heard the child's answer.
    expect(JSON.stringify(model.requests.at(-1)!.body?.messages?.at(-1))).toContain('CHILD-DONE');
  }, 240_000);
});
