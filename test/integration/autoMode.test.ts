import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConversationItem, ConversationView, PlanStepView } from '../../src/shared/agent';
import type { EngineClient } from '../support/engineClient';
import { latest, requestText, toolResults } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';
import { recordsWhen } from '../support/historyRecords';

// `!auto <task>` end to end in the engine: a real bash pane, the real SDK against the scripted
// model server, the real gate. GREEN runs, YELLOW asks, RED is refused and the model told;
// Ctrl+C in the pane ends the run; limits stop it; Tandem writes the summary.

const open = useAgentEngine();

const run = (id: string, command: string) => ({ toolUse: { id, name: 'run_command', input: { command, purpose: `run ${command}` } } });

type Summary = Extract<ConversationItem, { role: 'summary' }>;

function allSteps(view: ConversationView | undefined): PlanStepView[] {
  return (view?.items ?? []).flatMap((item) => (item.role === 'plan' ? item.plan.steps : []));
}

function stepOf(client: EngineClient, command: string, predicate: (step: PlanStepView) => boolean, what: string): Promise<PlanStepView> {
  return client.waitFor(() => allSteps(latest(client)).find((step) => step.command === command && predicate(step)), 15_000, what);
}

function planIdWith(client: EngineClient, stepId: string): string {
  const item = latest(client)?.items.find((candidate) => candidate.role === 'plan' && candidate.plan.steps.some((step) => step.id === stepId));
  if (item?.role !== 'plan') throw new Error(`no plan holds ${stepId}`);
  return item.plan.id;
}

function summaryOf(client: EngineClient): Promise<Summary> {
  return client.waitFor(() => latest(client)?.items.find((item): item is Summary => item.role === 'summary'), 20_000, 'the auto summary');
}

describe('auto mode', () => {
  it('`!auto` at the prompt: GREEN runs unasked, RED is refused and the model told, YELLOW asks; the summary says what ran', async () => {
    const { client, model, paneId, home, engine } = await open();
    model.script(
      { parts: [run('g1', 'ls -a')] },
      { parts: [run('r1', 'rm -rf ~')] },
      { parts: [run('y1', 'touch made-by-auto.txt')] },
      { parts: [{ text: 'Done: the file exists.' }] },
    );
    client.type(paneId, '!auto make a file\r');

    const auto = await client.waitFor(() => latest(client)?.auto, 10_000, 'the auto run in the view');
    expect(auto).toMatchObject({ task: 'make a file', paneId, maxSteps: 50 });

    const green = await stepOf(client, 'ls -a', (step) => step.status === 'done', 'the GREEN step ran');
    expect(green.decider).toMatchObject({ verdict: 'allowed', by: 'auto' });
    expect(green.exitCode).toBe(0);

    const red = await stepOf(client, 'rm -rf ~', (step) => step.status === 'denied', 'the RED step refused');
    expect(red.detail).toMatch(/refused \(RED\) by auto mode/);
    expect(existsSync(home)).toBe(true);
    const toldRed = toolResults(await model.waitForRequest(3));
    expect(toldRed).toEqual([expect.objectContaining({ tool_use_id: 'r1', is_error: true, content: expect.stringContaining('refuses RED steps') })]);

    const yellow = await stepOf(client, 'touch made-by-auto.txt', (step) => step.approval !== undefined, 'the YELLOW step judged');
    expect(yellow.status).toBe('proposed');
    await client.waitFor(() => latest(client)?.status === 'awaiting-approval', 10_000, 'the run waiting for the user');
    expect(existsSync(join(home, 'made-by-auto.txt'))).toBe(false);
    await client.request('agent.step', { planId: planIdWith(client, yellow.id), stepId: yellow.id, action: 'approve' });

    const summary = await summaryOf(client);
    expect(existsSync(join(home, 'made-by-auto.txt'))).toBe(true);
    expect(summary.summary).toMatchObject({ task: 'make a file', end: { kind: 'done' } });
    expect(summary.summary.steps.map(({ command, status, exitCode }) => ({ command, status, exitCode }))).toEqual([
      { command: 'ls -a', status: 'done', exitCode: 0 },
      { command: 'rm -rf ~', status: 'denied', exitCode: undefined },
      { command: 'touch made-by-auto.txt', status: 'done', exitCode: 0 },
    ]);
    expect(latest(client)?.auto).toBeUndefined();
    expect(requestText(model.requests[0]!)).toContain('Auto mode: work on this task');

    // The task never reached bash or its history.
    client.type(paneId, 'history -a\r');
    await client.waitForBlock(paneId, 'history -a');
    expect(readFileSync(join(home, '.bash_history'), 'utf8')).not.toContain('make a file');

    // Tandem's block history has the run's steps as the auto run's, with who allowed them; the user's own command as theirs.
    const records = await recordsWhen(engine.history, {}, (found) => found.some((record) => record.command === 'history -a'), 'the blocks in the history');
    expect(records.map(({ command, author, decision }) => ({ command, author, decision }))).toEqual([
      { command: 'history -a', author: 'you', decision: null },
      { command: 'touch made-by-auto.txt', author: 'auto-run', decision: 'allowed by you' },
      { command: 'ls -a', author: 'auto-run', decision: 'allowed by auto' },
    ]);
  });

  it('Ctrl+C in the pane interrupts the running step and ends the run; the model is not asked again, and hears of it next time', async () => {
    const { client, model, paneId } = await open();
    model.script({ parts: [run('s1', 'sleep 30'), run('s2', 'echo after')] }, { parts: [{ text: 'Noted.' }] });
    await client.request('agent.auto', { paneId, task: 'wait a while' });
    // sleep only waits: GREEN, it runs unasked. Its block started: bash runs sleep (a Ctrl+C before that would only clear the typed line).
    await stepOf(client, 'sleep 30', (step) => step.status === 'running' && step.blockId !== undefined, 'the sleep running');
    const before = client.textOf(paneId).length;
    client.type(paneId, '\x03');

    const summary = await summaryOf(client);
    expect(summary.summary.end).toEqual({ kind: 'stopped', by: 'ctrl-c' });
    expect(summary.summary.steps[0]).toMatchObject({ command: 'sleep 30', status: 'failed', detail: 'auto run stopped (Ctrl+C in the pane)' });
    expect(summary.summary.steps[1]).toMatchObject({ command: 'echo after', status: 'skipped', detail: 'auto run stopped (Ctrl+C in the pane)' });
    expect(allSteps(latest(client)).find((step) => step.command === 'echo after')?.decider).toEqual({ verdict: 'skipped', by: 'you', rule: 'Ctrl+C in the pane' });
    expect(latest(client)?.auto).toBeUndefined();
    // The loop has ended (the summary is written when it does): one request, none after the stop.
    expect(model.requests).toHaveLength(1);

    // The pane looks as after one Ctrl+C: Tandem sent none of its own on top of the user's.
    client.type(paneId, 'echo settled\r');
    await client.waitForBlock(paneId, 'echo settled');
    expect(client.textOf(paneId).slice(before).match(/\^C/g)).toHaveLength(1);

    await client.request('agent.send', { text: 'what happened?', attachments: [], paneId });
    const next = await model.waitForRequest(2);
    expect(requestText(next)).toContain('The user stopped the auto run of the task \\"wait a while\\" with Ctrl+C in the pane.');
    expect(requestText(next)).not.toContain('by you');
    const told = toolResults(next);
    expect(told.find((result) => result.tool_use_id === 's1')?.content).toContain('It was interrupted: the user stopped the auto run with Ctrl+C in the pane.');
    expect(told.find((result) => result.tool_use_id === 's2')?.content).toBe('Not run: the user stopped the auto run with Ctrl+C in the pane.');
  });

  it('ended by its token budget: the steps it did not run say so on their cards, to the model and in the summary', async () => {
    const { client, model, paneId } = await open({ configToml: '[companion]\nauto_token_budget = 1000\n' });
    model.script({ parts: [{ text: 'Counting now.' }, run('a', 'echo one'), run('b', 'echo two')], usage: { inputTokens: 1_500 } });
    await client.request('agent.auto', { paneId, task: 'count' });
    const summary = await summaryOf(client);
    const words = 'its token budget of 1,000 was used up';
    expect(summary.summary.end).toEqual({ kind: 'limit', limit: 'tokens', detail: words });
    expect(summary.summary.steps.map(({ command, status, detail }) => ({ command, status, detail }))).toEqual([
      { command: 'echo one', status: 'skipped', detail: `auto run ended: ${words}` },
      { command: 'echo two', status: 'skipped', detail: `auto run ended: ${words}` },
    ]);
    expect(allSteps(latest(client))[1]?.decider).toEqual({ verdict: 'skipped', by: 'auto', rule: words });
    // The answer that used up the budget arrived whole: it is not marked cancelled.
    const answer = latest(client)?.items.find((item) => item.role === 'assistant' && item.text === 'Counting now.');
    expect(answer).toMatchObject({ streaming: false });
    expect(answer?.role === 'assistant' && answer.interrupted).toBeUndefined();

    await client.request('agent.send', { text: 'and now?', attachments: [], paneId });
    const next = await model.waitForRequest(2);
    expect(toolResults(next).map((result) => result.content)).toEqual([`Not run: the auto run ended because ${words}.`, `Not run: the auto run ended because ${words}.`]);
    const sent = requestText(next);
    expect(sent).not.toContain('the user cancelled the plan');
    expect(sent).toContain(`The auto run of the task \\"count\\" ended early: ${words}.`);
  });

  it('stops at its step limit: steps beyond it are refused on their cards, listed as not run, and the model is told why', async () => {
    const { client, model, paneId, home } = await open({ configToml: '[companion]\nauto_max_steps = 2\n' });
    model.script({ parts: [run('a', 'echo one'), run('b', 'echo two'), run('c', 'echo three')] });
    await client.request('agent.auto', { paneId, task: 'count' });
    const summary = await summaryOf(client);
    // echo is read-only: both run unasked.
    expect(summary.summary.end).toMatchObject({ kind: 'limit', limit: 'steps' });
    const limit = "refused: this auto run's limit of 2 steps was reached";
    expect(summary.summary.steps.map(({ command, status, detail }) => ({ command, status, detail }))).toEqual([
      { command: 'echo one', status: 'done', detail: undefined },
      { command: 'echo two', status: 'done', detail: undefined },
      { command: 'echo three', status: 'denied', detail: limit },
    ]);
    const card = allSteps(latest(client)).find((step) => step.command === 'echo three');
    expect(card).toMatchObject({ status: 'denied', detail: limit, beyondLimit: true, decider: { verdict: 'denied', by: 'auto' } });
    // The audit trail (written in the background): proposed, then refused by the run's limit.
    const auditFile = join(home, '.local/share/tandem/audit.jsonl');
    const auditOf = (command: string) =>
      (existsSync(auditFile) ? readFileSync(auditFile, 'utf8') : '')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { event: string; command?: string; decidedBy?: unknown })
        .filter((entry) => entry.command === command);
    const audit = await client.waitFor(() => auditOf('echo three').length >= 2 && auditOf('echo three'), 10_000, 'the audit lines of the refused step');
    expect(audit.map(({ event, decidedBy }) => ({ event, decidedBy }))).toEqual([
      { event: 'proposed', decidedBy: undefined },
      { event: 'denied', decidedBy: { kind: 'auto', rule: 'its limit of 2 steps' } },
    ]);
    expect(model.requests).toHaveLength(1);
    await client.request('agent.send', { text: 'and now?', attachments: [], paneId });
    const next = await model.waitForRequest(2);
    const told = toolResults(next);
    expect(told.find((result) => result.tool_use_id === 'c')?.content).toContain('limit of 2 steps');
    expect(requestText(next)).toContain('the limit of 2 steps was reached');
  });

  it('a policy that asks beats auto mode\'s GREEN: `ls` waits for the user', async () => {
    const { client, model, paneId } = await open({ systemPolicyToml: '[approval.shell]\nmode = "ask"\n' });
    model.script({ parts: [run('l', 'ls')] });
    await client.request('agent.auto', { paneId, task: 'look around' });
    const step = await stepOf(client, 'ls', (candidate) => candidate.approval !== undefined, 'ls judged');
    expect(step.status).toBe('proposed');
    expect(step.approval?.rule).toContain('mode = "ask"');
    await client.waitFor(() => latest(client)?.status === 'awaiting-approval', 10_000, 'waiting for the user');
    await client.request('agent.auto-stop', {});
    const summary = await summaryOf(client);
    expect(summary.summary.end).toEqual({ kind: 'stopped', by: 'stop-button' });
    expect(summary.summary.steps[0]).toMatchObject({ command: 'ls', status: 'skipped', detail: 'auto run stopped (Stop on its banner)' });
  });

  it('a second run is refused while one works; an empty `!auto` asks for the task', async () => {
    const { client, model, paneId } = await open();
    model.script({ parts: [run('y', 'touch x')] });
    await client.request('agent.auto', { paneId, task: 'first' });
    await stepOf(client, 'touch x', (step) => step.approval !== undefined, 'the first run waiting');
    await expect(client.request('agent.auto', { paneId, task: 'second' })).rejects.toThrow(/already working on "first"/);
    client.type(paneId, '!auto\r');
    await client.waitFor(() => client.eventsOf('pane.notice').find((notice) => notice.message.includes('Type the task after !auto')), 10_000, 'the notice');
    await client.request('agent.cancel', { everything: false });
    expect((await summaryOf(client)).summary.end).toEqual({ kind: 'stopped', by: 'panel' });
  });

  it('closing the run\'s pane ends it; a new conversation drops a run without a summary', async () => {
    const { client, model, paneId } = await open();
    model.script({ parts: [run('s', 'sleep 30')] }, { parts: [run('t', 'touch y')] });
    await client.request('agent.auto', { paneId, task: 'sleep' });
    await stepOf(client, 'sleep 30', (step) => step.status === 'running', 'the sleep running');
    await client.request('pane.close', { paneId });
    const summary = await summaryOf(client);
    expect(summary.summary.end).toEqual({ kind: 'failed', detail: 'its pane was closed' });

    const other = await client.request('pane.create', { cols: 100, rows: 30 });
    await client.waitForPrompt(other.paneId);
    await client.request('agent.auto', { paneId: other.paneId, task: 'touch' });
    await stepOf(client, 'touch y', (step) => step.approval !== undefined, 'the second run waiting');
    const fresh = await client.request('agent.new', {});
    expect(fresh.auto).toBeUndefined();
    await client.waitFor(() => latest(client)?.status === 'idle' && latest(client)?.id === fresh.id, 10_000, 'the new conversation idle');
    expect(latest(client)?.items).toEqual([]);
  });

  it("git's configured pager counts for nothing where steps run with GIT_PAGER=cat: `git log` runs unasked, and the pager does not run", async () => {
    const { client, model, paneId, home } = await open();
    const repo = join(home, 'repo');
    mkdirSync(repo);
    const marker = join(home, 'pager-ran');
    const pager = join(home, 'pager.sh');
    writeFileSync(pager, `#!/bin/sh\ntouch '${marker}'\ncat\n`);
    chmodSync(pager, 0o755);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: repo, env: { ...process.env, HOME: home } });
    git('init', '-q');
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    git('add', '.');
    git('commit', '-qm', 'one');
    git('config', 'core.pager', pager);
    client.type(paneId, 'cd ~/repo\r');
    await client.waitForBlock(paneId, 'cd ~/repo');
    await client.waitFor(() => client.eventsOf('pane.state').filter((state) => state.paneId === paneId).at(-1)?.cwd === repo, 10_000, 'the pane in ~/repo');

    model.script({ parts: [run('l', 'git log --oneline')] }, { parts: [{ text: 'One commit.' }] });
    await client.request('agent.auto', { paneId, task: 'show the history' });
    const step = await stepOf(client, 'git log --oneline', (candidate) => candidate.status === 'done', 'git log ran');
    expect(step.risk?.level).toBe('green');
    expect(step.decider).toMatchObject({ by: 'auto' });
    expect((await summaryOf(client)).summary.end).toEqual({ kind: 'done' });
    expect(existsSync(marker)).toBe(false);
  });
});
