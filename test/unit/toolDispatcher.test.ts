import { describe, expect, it } from 'vitest';
import type { ConversationItem } from '../../src/shared/agent';
import { Conversation } from '../../src/main/agent/conversation/conversation';
import type { ImmediateTool } from '../../src/main/agent/tools/agentTool';
import { ToolDispatcher } from '../../src/main/agent/tools/toolDispatcher';
import { AGENT_TOOLS } from '../../src/main/agent/tools/toolRegistry';
import { runCommandTool } from '../../src/main/agent/tools/runCommandTool';
import { writeFileTool } from '../../src/main/agent/tools/writeFileTool';
import { readFileTool } from '../../src/main/agent/tools/readFileTool';
import type { ApprovalGate, GateDecision, ProposedCommand } from '../../src/main/safety/approval/approvalGate';
import type { AuditRecord } from '../../src/main/safety/audit/auditEntry';
import { FakePane } from '../support/fakePane';
import { untilTrue } from '../support/untilTrue';

// The dispatcher over a registry: immediate tools run and are scrubbed, gated calls become
// plan steps, every call gets a result in the model's order.

const secret = `ghp_${'Ab3De5Fg7Hj9Kl1Mn3Pq5Rs7Tu9Vw1Xy3Za5'.slice(0, 36)}`;

const peekTool: ImmediateTool = {
  definition: { name: 'peek', description: 'reads a path', input_schema: { type: 'object' } },
  approval: 'none',
  async run(input, context) {
    const path = (input as { path: string }).path;
    const refused = context.refuse?.(path);
    if (refused) return { content: `refused by ${refused}`, isError: false, summary: `peek ${path}` };
    return { content: `${path} in ${context.cwd} holds ${secret}`, isError: false, summary: `peek ${path}` };
  },
};

function setup(verdict: Partial<GateDecision> = { decision: 'deny', rule: 'policy: deny everything', decidedBy: 'policy' }) {
  const pane = new FakePane();
  const audit: AuditRecord[] = [];
  const conversation = new Conversation({
    surroundings: () => ({ status: 'idle', backend: 'anthropic', model: 'm', budget: { used: 0, limit: 0 }, grants: [], policyProblems: [] }),
    emit: () => undefined,
  });
  const classified: { command: string; cwd: string; remote?: unknown }[] = [];
  const proposed: ProposedCommand[] = [];
  const gate = {
    classify: async (command: string, cwd: string, _environment: unknown, remote?: unknown) => {
      classified.push({ command, cwd, ...(remote ? { remote } : {}) });
      return { level: 'yellow', reasons: [], parts: [] };
    },
    // As the gate does: a step on another host carries the host on its decision.
    decide: async (step: ProposedCommand) => {
      proposed.push(step);
      return { blocked: false, level: 'yellow', reasons: [], shape: '', command: step.command, ...(step.remote ? { host: step.remote.host } : {}), ...verdict };
    },
    grants: { grant: () => undefined },
    fileRead: (path: string) => (path.includes('.ssh') ? { decision: 'deny', rule: 'policy: [approval.filesystem] deny "~/.ssh/**"' } : undefined),
    afterExecution: async () => [],
  } as unknown as ApprovalGate;
  const dispatcher = new ToolDispatcher([runCommandTool, writeFileTool, readFileTool, peekTool], {
    pane: (paneId) => (paneId === pane.id ? pane : undefined),
    paneId: () => pane.id,
    cwd: () => pane.cwd,
    homeDir: '/home/user',
    conversation,
    gate,
    audit: { append: async (record: AuditRecord) => void audit.push(record) },
    stepTimeoutMs: () => 60_000,
  });
  const items = () => conversation.view().items;
  return { pane, audit, conversation, dispatcher, items, gate: { classified, proposed } };
}

const call = (id: string, name: string, input: unknown) => ({ id, name, input });

describe('ToolDispatcher', () => {
  it('offers the registry in order: run_command first, then the read-only tools, then the file edits, the looks at the screen, the UI actions, listening and child agents (gated)', () => {
    expect(AGENT_TOOLS.map((tool) => [tool.definition.name, tool.approval])).toEqual([
      ['run_command', 'gate'],
      ['terminal_history', 'none'],
      ['search_history', 'none'],
      ['read_file', 'none'],
      ['list_directory', 'none'],
      ['edit_file', 'gate'],
      ['write_file', 'gate'],
      ['screenshot', 'gate'],
      ['read_screen_text', 'gate'],
      ['list_windows', 'gate'],
      ['ui_action', 'gate'],
      ['computer', 'gate'],
      ['listen', 'gate'],
      ['spawn_agent', 'gate'],
    ]);
  });

  it('runs immediate tools with the pane cwd, scrubs what they return, and shows a line for each; an unknown tool is an error', async () => {
    const { dispatcher, items } = setup();
    const calls = [call('a', 'peek', { path: 'notes.txt' }), call('b', 'teleport', {})];
    const { results, stop } = await dispatcher.execute(calls);
    expect(stop).toBe(false);
    expect(results).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: 'notes.txt in /home/user/project holds [REDACTED:github-token]' },
      { type: 'tool_result', tool_use_id: 'b', content: 'There is no tool named teleport.', is_error: true },
    ]);
    expect(items().map((item) => (item.role === 'tool' ? [item.tool, item.summary, item.ok] : item.role))).toEqual([
      ['peek', 'peek notes.txt', true],
      ['teleport', 'unknown tool teleport', false],
    ]);
  });

  it('a read the policy refuses is recorded in the audit trail', async () => {
    const { dispatcher, audit, conversation } = setup();
    const { results } = await dispatcher.execute([call('a', 'peek', { path: '/home/user/.ssh/id_ed25519' })]);
    expect(results[0]).toMatchObject({ content: 'refused by policy: [approval.filesystem] deny "~/.ssh/**"' });
    expect(audit).toEqual([
      {
        event: 'denied',
        conversation: conversation.id,
        command: 'peek /home/user/.ssh/id_ed25519',
        cwd: '/home/user/project',
        decision: 'deny',
        decidedBy: { kind: 'policy', rule: 'policy: [approval.filesystem] deny "~/.ssh/**"' },
      },
    ]);
  });

  it('gated calls become the steps of one plan as they stream in; its card shows from the first step', () => {
    const { dispatcher, items } = setup();
    dispatcher.toolUse(call('s1', 'run_command', { command: 'make', purpose: 'build' }));
    dispatcher.toolUse(call('s2', 'run_command', { command: 'make test', purpose: 'test' }));
    dispatcher.toolUse(call('r1', 'peek', { path: 'x' }));
    const plans = items().filter((item): item is Extract<ConversationItem, { role: 'plan' }> => item.role === 'plan');
    expect(plans).toHaveLength(1);
    expect(plans[0]?.plan.steps.map((step) => [step.command, step.paneId])).toEqual([
      ['make', 1],
      ['make test', 1],
    ]);
    expect(dispatcher.plan).toBeUndefined();
    dispatcher.responseComplete();
    expect(dispatcher.plan?.plan.steps).toHaveLength(2);
  });

  it('at a remote prompt a step is classified and judged for that host, and the audit trail records the host', async () => {
    const { dispatcher, pane, audit, gate } = setup({ decision: 'deny', rule: 'policy: deny everything', decidedBy: 'policy' });
    pane.remote = { host: 'db1', user: 'deploy', os: 'Linux', arch: 'x86_64', shell: '/bin/bash' };
    pane.cwd = '/srv/app';
    const calls = [call('s1', 'run_command', { command: 'git status', purpose: 'look' })];
    dispatcher.toolUse(calls[0]!);
    dispatcher.responseComplete();
    const { results } = await dispatcher.execute(calls);
    expect(gate.classified.at(-1)).toEqual({ command: 'git status', cwd: '/srv/app', remote: { host: 'db1', user: 'deploy' } });
    expect(gate.proposed.at(-1)).toMatchObject({ command: 'git status', cwd: '/srv/app', remote: { host: 'db1', user: 'deploy' } });
    expect(audit.find((record) => record.event === 'denied')).toMatchObject({ command: 'git status', cwd: '/srv/app', host: 'db1' });
    expect(JSON.stringify(results[0])).toContain('denied by policy: deny everything');
    expect(pane.typed).toEqual([]);
  });

  it("read_file in a remote pane refuses a relative path and says an absolute one was read on this machine", async () => {
    const { dispatcher, pane } = setup();
    pane.remote = { host: 'db1', user: 'deploy', os: 'Linux', arch: 'x86_64', shell: '/bin/bash' };
    pane.cwd = '/etc';
    const { results } = await dispatcher.execute([call('r1', 'read_file', { path: 'hostname' }), call('r2', 'read_file', { path: '/etc/hostname' })]);
    expect(JSON.stringify(results[0])).toContain('The pane is on db1 over ssh');
    expect(JSON.stringify(results[1])).toContain("read this machine's files, not db1's: pane 1 is on db1 over ssh; read files there with a command.)");
    pane.remote = undefined;
    const local = await dispatcher.execute([call('r3', 'read_file', { path: 'hostname' })]);
    expect(JSON.stringify(local.results[0])).not.toContain('db1');
  });

  it('on this machine nothing carries a host', async () => {
    const { dispatcher, audit, gate } = setup();
    const calls = [call('s1', 'run_command', { command: 'git status', purpose: 'look' })];
    dispatcher.toolUse(calls[0]!);
    dispatcher.responseComplete();
    await dispatcher.execute(calls);
    expect(gate.proposed.at(-1)?.remote).toBeUndefined();
    expect(audit.find((record) => record.event === 'denied')?.host).toBeUndefined();
  });

  it('at a remote prompt a file edit is refused with the reason: it would be made on this machine', async () => {
    const { dispatcher, pane } = setup({ decision: 'allow', rule: 'policy: allow', decidedBy: 'policy' });
    pane.remote = { host: 'db1', user: 'deploy', os: 'Linux', arch: 'x86_64', shell: '/bin/bash' };
    const calls = [call('e1', 'write_file', { path: 'notes.txt', content: 'x' })];
    dispatcher.toolUse(calls[0]!);
    dispatcher.responseComplete();
    const executing = dispatcher.execute(calls);
    await untilTrue(() => dispatcher.plan?.plan.state === 'halted' || dispatcher.plan === undefined, 'the edit judged');
    dispatcher.plan?.planAction('stop');
    const { results } = await executing;
    expect(JSON.stringify(results[0])).toContain('file edits are made on this machine only; the pane is on db1');
  });

  it('a dropped response takes its plan card with it', () => {
    const { dispatcher, items } = setup();
    dispatcher.toolUse(call('s1', 'run_command', { command: 'make', purpose: '' }));
    dispatcher.responseDropped();
    expect(items()).toEqual([]);
    dispatcher.responseComplete();
    expect(dispatcher.plan).toBeUndefined();
  });

  it('refuses gated calls with invalid input or past the plan limit, and answers every call in the model order', async () => {
    const { dispatcher, audit } = setup();
    const calls = [
      call('bad', 'run_command', { purpose: 'no command' }),
      ...Array.from({ length: 51 }, (_, i) => call(`s${i}`, 'run_command', { command: `echo ${i}`, purpose: '' })),
      call('r', 'peek', { path: 'a' }),
    ];
    for (const each of calls) dispatcher.toolUse(each);
    dispatcher.responseComplete();
    const executing = dispatcher.execute(calls);
    // The gate denies step 1: the plan halts for the user, who stops it.
    await untilTrue(() => dispatcher.plan?.plan.state === 'halted', 'the plan halts');
    dispatcher.plan?.planAction('stop');
    const { results } = await executing;
    expect(results.map((result) => (result.type === 'tool_result' ? result.tool_use_id : ''))).toEqual(calls.map((each) => each.id));
    expect(results[0]).toMatchObject({ content: 'Not run: the tool input was invalid (Invalid input: expected string, received undefined); "command" is required.', is_error: true });
    expect(results[1]).toMatchObject({ content: 'Not run: denied by policy: deny everything.', is_error: true });
    expect(results[2]).toMatchObject({ content: 'Not run: the user stopped the plan. Step 1 was denied by policy: deny everything.' });
    expect(results[51]).toMatchObject({ content: 'Not run: a plan has at most 50 steps; propose the rest after these have run.', is_error: true });
    expect(results[52]).toMatchObject({ tool_use_id: 'r' });
    expect(audit.filter((record) => record.event === 'proposed')).toHaveLength(50);
    expect(dispatcher.plan).toBeUndefined();
  });
});
