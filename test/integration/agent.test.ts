import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { latest, planIdOf, requestText, toolResults, waitForIdleWithAnswer, waitForStep } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';
import { startScriptedModelServer } from '../support/modelServer';

const open = useAgentEngine();

describe('the agent, with a real bash and the real SDK against a scripted model', () => {
  it('takes a `# ` line from the prompt, runs the approved step in the pane and sends its block back', async () => {
    const { client, model, paneId, home } = await open();
    model.script(
      { parts: [{ text: 'I will list them.' }, { toolUse: { id: 'toolu_1', name: 'run_command', input: { command: 'ls -1 /', purpose: 'list files' } } }] },
      { parts: [{ text: 'Those are the top-level directories.' }] },
    );
    client.type(paneId, '# list the files here\r');
    const first = await model.waitForRequest(1);
    expect(requestText(first)).toContain('list the files here');
    expect(first.body?.model).toBe('claude-sonnet-5-5');
    // The standing context names the shell and cwd, never raw output.
    expect(String(first.body?.system)).toContain('bash');

    const step = await waitForStep(client, (s) => s.status === 'proposed', 'a proposed step');
    expect(step.command).toBe('ls -1 /');
    await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'approve' });

    const block = await client.waitForBlock(paneId, 'ls -1 /');
    expect(block.exitCode).toBe(0);
    const second = await model.waitForRequest(2);
    const [result] = toolResults(second);
    expect(result?.tool_use_id).toBe('toolu_1');
    expect(result?.content).toContain('Exit code: 0');
    expect(result?.content).toContain('usr');
    await waitForIdleWithAnswer(client, 'top-level directories');
    expect(await waitForStep(client, (s) => s.id === step.id && s.status === 'done', 'step done')).toBeTruthy();

    // The instruction never reached the shell: not its history, not a block.
    client.type(paneId, 'history -a\r');
    await client.waitForBlock(paneId, 'history -a');
    const historyFile = join(home, '.bash_history');
    const history = existsSync(historyFile) ? readFileSync(historyFile, 'utf8') : '';
    expect(history).toContain('ls -1 /');
    expect(history).not.toContain('list the files here');
    expect(client.eventsOf('block.finished').some((b) => b.command.includes('list the files'))).toBe(false);
  });

  it('tells the model when a step is denied, and runs the edited command when one is edited', async () => {
    const { client, model, paneId } = await open();
    model.script(
      {
        parts: [
          { toolUse: { id: 'toolu_a', name: 'run_command', input: { command: 'echo first', purpose: 'one' } } },
          { toolUse: { id: 'toolu_b', name: 'run_command', input: { command: 'echo second', purpose: 'two' } } },
        ],
      },
      { parts: [{ text: 'Understood.' }] },
    );
    await client.request('agent.send', { text: 'do two things', attachments: [], paneId });
    const first = await waitForStep(client, (s) => s.index === 1 && s.status === 'proposed', 'step 1');
    const planId = planIdOf(client);
    await client.request('agent.step', { planId, stepId: first.id, action: 'deny', reason: 'not that' });
    const second = await waitForStep(client, (s) => s.index === 2 && s.status === 'proposed', 'step 2');
    await client.request('agent.step', { planId, stepId: second.id, action: 'edit', command: 'echo edited-second' });
    await client.waitForBlock(paneId, 'echo edited-second');
    const request = await model.waitForRequest(2);
    const results = toolResults(request);
    expect(results.find((r) => r.tool_use_id === 'toolu_a')).toMatchObject({ is_error: true });
    expect(results.find((r) => r.tool_use_id === 'toolu_a')?.content).toContain('not that');
    expect(results.find((r) => r.tool_use_id === 'toolu_b')?.content).toContain('edited-second');
    expect(results.find((r) => r.tool_use_id === 'toolu_b')?.content).toContain('you proposed: echo second');
    await waitForIdleWithAnswer(client, 'Understood');
    expect(client.eventsOf('block.finished').some((b) => b.command === 'echo first' || b.command === 'echo second')).toBe(false);
  });

  it('skips a step on request and runs the rest with Allow all', async () => {
    const { client, model, paneId } = await open();
    model.script(
      {
        parts: [
          { toolUse: { id: 'k1', name: 'run_command', input: { command: 'echo skipped-one', purpose: '1' } } },
          { toolUse: { id: 'k2', name: 'run_command', input: { command: 'echo ran-two', purpose: '2' } } },
          { toolUse: { id: 'k3', name: 'run_command', input: { command: 'echo ran-three', purpose: '3' } } },
        ],
      },
      { parts: [{ text: 'Done.' }] },
    );
    await client.request('agent.send', { text: 'three', attachments: [], paneId });
    const first = await waitForStep(client, (s) => s.index === 3 && s.status === 'proposed', 'all steps');
    const planId = planIdOf(client);
    await client.request('agent.step', { planId, stepId: first.id.replace(/s3$/, 's1'), action: 'skip' });
    await client.request('agent.plan', { planId, action: 'allow-all' });
    await client.waitForBlock(paneId, 'echo ran-three');
    const results = toolResults(await model.waitForRequest(2));
    expect(results.map((r) => r.tool_use_id)).toEqual(['k1', 'k2', 'k3']);
    expect(results[0]?.content).toContain('skipped');
    expect(results[2]?.content).toContain('ran-three');
    await waitForIdleWithAnswer(client, 'Done.');
    expect(client.eventsOf('block.finished').some((b) => b.command === 'echo skipped-one')).toBe(false);
  });

  it('works the same through an OpenAI-compatible endpoint (a local server needs no key)', async () => {
    const { client, model, paneId } = await open({ openAiCompatible: true });
    model.script(
      { parts: [{ text: 'Checking.' }, { toolUse: { id: 'call_1', name: 'run_command', input: { command: 'echo via-openai', purpose: 'x' } } }] },
      { parts: [{ text: 'It printed via-openai.' }] },
    );
    await client.request('agent.send', { text: 'try it', attachments: [], paneId });
    const step = await waitForStep(client, (s) => s.status === 'proposed', 'step');
    expect(latest(client)?.backend).toBe('openai-compatible');
    await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'approve' });
    const second = await model.waitForRequest(2);
    expect(second.path).toBe('/v1/chat/completions');
    const messages = (second.body?.messages ?? []) as { role: string; content?: string; tool_call_id?: string }[];
    expect(messages[0]?.role).toBe('system');
    const tool = messages.find((m) => m.role === 'tool');
    expect(tool?.tool_call_id).toBe('call_1');
    expect(tool?.content).toContain('via-openai');
    await waitForIdleWithAnswer(client, 'printed via-openai');
  });

  it('classifies each step; a RED step is blocked for Approve and Allow all until edited', async () => {
    const { client, model, paneId } = await open();
    model.script(
      {
        parts: [
          { toolUse: { id: 'g', name: 'run_command', input: { command: 'ls -la', purpose: 'look' } } },
          { toolUse: { id: 'r', name: 'run_command', input: { command: 'rm -rf ~', purpose: 'clean up' } } },
        ],
      },
      { parts: [{ text: 'Understood.' }] },
    );
    await client.request('agent.send', { text: 'clean my home', attachments: [], paneId });
    const red = await waitForStep(client, (s) => s.index === 2 && s.risk !== undefined, 'the RED step classified');
    expect(red.risk?.level).toBe('red');
    expect(red.risk?.reasons.join(' ')).toMatch(/home|~/i);
    const green = await waitForStep(client, (s) => s.index === 1 && s.risk !== undefined, 'the GREEN step classified');
    expect(green.risk?.level).toBe('green');
    const planId = planIdOf(client);
    // Not its turn yet: only the step waiting for a decision takes one.
    await expect(client.request('agent.step', { planId, stepId: red.id, action: 'approve' })).rejects.toThrow(/not the step waiting/);
    await client.request('agent.plan', { planId, action: 'allow-all' });
    await client.waitForBlock(paneId, 'ls -la');
    // Allow all ran step 1 and stops at the RED step, which waits for the user (the view from
    // before step 1 ran said awaiting-approval too: wait for the one after it).
    await waitForStep(client, (s) => s.index === 1 && s.status === 'done', 'step 1 done');
    await client.waitFor(() => latest(client)?.status === 'awaiting-approval', 10_000, 'waiting at the RED step');
    expect((await waitForStep(client, (s) => s.index === 2, 'step 2')).status).toBe('proposed');
    await expect(client.request('agent.step', { planId, stepId: red.id, action: 'approve' })).rejects.toThrow(/blocked/);
    // Edited into something harmless, it runs.
    await client.request('agent.step', { planId, stepId: red.id, action: 'edit', command: 'echo would-clean' });
    await client.waitForBlock(paneId, 'echo would-clean');
    const results = toolResults(await model.waitForRequest(2));
    expect(results[1]?.content).toContain('you proposed: rm -rf ~');
    expect(client.eventsOf('block.started').some((b) => b.command === 'rm -rf ~')).toBe(false);
  });

  it('stops the plan at a failing step; stop sends what ran and what did not', async () => {
    const { client, model, paneId } = await open();
    model.script(
      {
        parts: [
          { toolUse: { id: 't1', name: 'run_command', input: { command: 'false', purpose: 'fails' } } },
          { toolUse: { id: 't2', name: 'run_command', input: { command: 'echo never', purpose: 'after' } } },
        ],
      },
      { parts: [{ text: 'The first step failed.' }] },
    );
    await client.request('agent.send', { text: 'go', attachments: [], paneId });
    await waitForStep(client, (s) => s.index === 1 && s.status === 'proposed', 'step 1');
    await client.request('agent.plan', { planId: planIdOf(client), action: 'allow-all' });
    await waitForStep(client, (s) => s.index === 1 && s.status === 'failed', 'step 1 failed');
    const halted = await client.waitFor(() => {
      const plan = latest(client)?.items.find((item) => item.role === 'plan');
      return plan?.role === 'plan' && plan.plan.state === 'halted' ? plan.plan : undefined;
    });
    expect(halted.haltReason).toContain('exited with code 1');
    expect(halted.steps[1]?.status).toBe('proposed');
    await client.request('agent.plan', { planId: halted.id, action: 'stop' });
    const request = await model.waitForRequest(2);
    const results = toolResults(request);
    expect(results.find((r) => r.tool_use_id === 't1')?.content).toContain('Exit code: 1');
    expect(results.find((r) => r.tool_use_id === 't2')?.content).toContain('stopped the plan');
    await waitForIdleWithAnswer(client, 'first step failed');
    expect(client.eventsOf('block.finished').some((b) => b.command === 'echo never')).toBe(false);
  });

  it('a note between steps goes to the model, which revises the rest of the plan', async () => {
    const { client, model, paneId } = await open();
    model.script(
      {
        parts: [
          { toolUse: { id: 'n1', name: 'run_command', input: { command: 'echo one', purpose: '1' } } },
          { toolUse: { id: 'n2', name: 'run_command', input: { command: 'echo two', purpose: '2' } } },
        ],
      },
      { parts: [{ toolUse: { id: 'n3', name: 'run_command', input: { command: 'echo revised', purpose: 'per your note' } } }] },
    );
    await client.request('agent.send', { text: 'echo things', attachments: [], paneId });
    const first = await waitForStep(client, (s) => s.index === 1 && s.status === 'proposed', 'step 1');
    await client.request('agent.step', { planId: planIdOf(client), stepId: first.id, action: 'approve' });
    await waitForStep(client, (s) => s.index === 2 && s.status === 'proposed' && s.command === 'echo two', 'step 2 waiting');
    await client.waitForBlock(paneId, 'echo one');
    await client.request('agent.note', { text: 'say revised instead' });
    const request = await model.waitForRequest(2);
    expect(requestText(request)).toContain('say revised instead');
    expect(toolResults(request).find((r) => r.tool_use_id === 'n2')?.content).toContain('added a note');
    const revised = await waitForStep(client, (s) => s.command === 'echo revised' && s.status === 'proposed', 'revised step');
    expect(revised.index).toBe(1);
    // The revision waits for the user again (once the gate has judged it).
    await client.waitFor(() => latest(client)?.status === 'awaiting-approval', 5_000, 'awaiting approval');
  });

  it('cancels a streaming answer: the panel settles and the server sees the connection closed', async () => {
    const { client, model, paneId } = await open();
    model.script({ parts: [{ text: 'This answer is long and slow' }], holdAfterEvents: 4 });
    await client.request('agent.send', { text: 'talk', attachments: [], paneId });
    const request = await model.waitForRequest(1);
    await client.waitFor(() => latest(client)?.status === 'streaming', 15_000, 'streaming');
    const result = await client.request('agent.cancel', { everything: false });
    expect(result.cancelled).toBe('stream');
    const settled = await client.waitFor(() => (latest(client)?.status === 'idle' ? latest(client) : undefined), 2_000, 'idle');
    const answer = settled.items.find((item) => item.role === 'assistant');
    expect(answer?.role === 'assistant' && answer.interrupted).toBe('Cancelled.');
    await request.closed;
    expect(request.closedByClient).toBe(true);
  });

  it('interrupts a running step with SIGINT', async () => {
    const { client, model, paneId } = await open();
    model.script(
      { parts: [{ toolUse: { id: 's1', name: 'run_command', input: { command: 'sleep 30', purpose: 'wait' } } }] },
      { parts: [{ text: 'It was interrupted.' }] },
    );
    await client.request('agent.send', { text: 'sleep', attachments: [], paneId });
    const step = await waitForStep(client, (s) => s.status === 'proposed', 'step');
    await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'approve' });
    await waitForStep(client, (s) => s.status === 'running' && s.blockId !== undefined, 'step running');
    expect((await client.request('agent.cancel', { everything: false })).cancelled).toBe('step');
    const block = await client.waitForBlock(paneId, 'sleep 30');
    expect(block.exitCode).toBe(130);
    const request = await model.waitForRequest(2);
    expect(toolResults(request)[0]?.content).toContain('It was interrupted: the user stopped it from the AI panel.');
  });

  it('two cancels within a second stop everything: the running step and the rest of the plan', async () => {
    const { client, model, paneId } = await open();
    model.script({
      parts: [
        { toolUse: { id: 'e1', name: 'run_command', input: { command: 'sleep 30', purpose: 'wait' } } },
        { toolUse: { id: 'e2', name: 'run_command', input: { command: 'echo never-runs', purpose: 'after' } } },
      ],
    });
    await client.request('agent.send', { text: 'two steps', attachments: [], paneId });
    await waitForStep(client, (s) => s.index === 2 && s.status === 'proposed', 'both steps');
    await client.request('agent.plan', { planId: planIdOf(client), action: 'allow-all' });
    await waitForStep(client, (s) => s.index === 1 && s.status === 'running' && s.blockId !== undefined, 'step 1 running');
    await client.request('agent.cancel', { everything: false });
    expect((await client.request('agent.cancel', { everything: false })).cancelled).toBe('everything');
    const block = await client.waitForBlock(paneId, 'sleep 30');
    expect(block.exitCode).toBe(130);
    await waitForStep(client, (s) => s.index === 2 && s.status === 'skipped', 'step 2 skipped');
    await client.waitFor(() => latest(client)?.status === 'idle', 10_000, 'idle');
    // A cancelled plan is not sent back to the model until the user writes again.
    expect(model.requests).toHaveLength(1);
    expect(client.eventsOf('block.started').some((b) => b.command === 'echo never-runs')).toBe(false);
  });

  it('attaches blocks to a message and answers `??` about the last command', async () => {
    const { client, model, paneId } = await open();
    client.type(paneId, 'ls /does-not-exist\r');
    const failed = await client.waitForBlock(paneId, 'ls /does-not-exist');
    model.script({ parts: [{ text: 'The directory does not exist.' }] }, { parts: [{ text: 'Again: it does not exist.' }] });
    await client.request('agent.send', { text: 'why did this fail?', attachments: [failed.id], paneId });
    const first = await model.waitForRequest(1);
    expect(requestText(first)).toContain('ls /does-not-exist');
    expect(requestText(first)).toContain('No such file or directory');
    await waitForIdleWithAnswer(client, 'does not exist');
    client.type(paneId, '??\r');
    const second = await model.waitForRequest(2);
    expect(requestText(second)).toContain('What happened with this command');
    expect(requestText(second).match(/No such file or directory/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('retries a 429 after retry-after and explains a 401', async () => {
    const { client, model, paneId } = await open();
    model.script({ status: 429, headers: { 'retry-after': '1' } }, { parts: [{ text: 'After the wait.' }] });
    await client.request('agent.send', { text: 'hi', attachments: [], paneId });
    await client.waitFor(() => latest(client)?.status === 'retrying' && latest(client)?.statusDetail?.includes('Retrying in'), 15_000, 'retry countdown');
    await waitForIdleWithAnswer(client, 'After the wait');
    expect(model.requests).toHaveLength(2);

    model.script({ status: 401 });
    await client.request('agent.send', { text: 'again', attachments: [], paneId });
    const error = await client.waitFor(() => latest(client)?.items.find((item) => item.role === 'error'), 15_000, 'error item');
    expect(error.role === 'error' && error.text).toContain('API key was refused (401)');
    expect(error.role === 'error' && error.text).toContain('ANTHROPIC_API_KEY');
  });

  it('a new conversation drops the waiting plan and starts with an empty history', async () => {
    const { client, model, paneId } = await open();
    model.script({ parts: [{ toolUse: { id: 'old', name: 'run_command', input: { command: 'echo old', purpose: '' } } }] }, { parts: [{ text: 'Fresh start.' }] });
    await client.request('agent.send', { text: 'first conversation', attachments: [], paneId });
    await waitForStep(client, (s) => s.status === 'proposed', 'the old plan');
    const fresh = await client.request('agent.new', {});
    expect(fresh.items).toEqual([]);
    await client.request('agent.send', { text: 'second conversation', attachments: [], paneId });
    const request = await model.waitForRequest(2);
    expect(requestText(request)).not.toContain('first conversation');
    expect(request.body?.messages).toHaveLength(1);
    await waitForIdleWithAnswer(client, 'Fresh start.');
    expect(client.eventsOf('block.started').some((b) => b.command === 'echo old')).toBe(false);
  });

  it('says the endpoint cannot be reached after retrying, with a countdown', async () => {
    // A port nothing listens on: the model server's own, closed.
    const closed = await startScriptedModelServer();
    const url = closed.url;
    await closed.close();
    const { client, paneId } = await open({ baseUrl: url });
    await client.request('agent.send', { text: 'hello?', attachments: [], paneId });
    await client.waitFor(() => latest(client)?.statusDetail?.includes('Retrying in'), 10_000, 'a retry countdown');
    const error = await client.waitFor(() => latest(client)?.items.find((item) => item.role === 'error'), 15_000, 'the error');
    expect(error.role === 'error' && error.text).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:\d+ \(.*ECONNREFUSED/);
    expect(latest(client)?.status).toBe('idle');
  });

  it('interrupts a step that runs past its timeout and tells the model', async () => {
    const { client, model, paneId } = await open({ configToml: '[ai]\nstep_timeout_seconds = 5\n' });
    model.script({ parts: [{ toolUse: { id: 'slow', name: 'run_command', input: { command: 'sleep 60', purpose: 'too slow' } } }] }, { parts: [{ text: 'It timed out.' }] });
    await client.request('agent.send', { text: 'wait', attachments: [], paneId });
    const step = await waitForStep(client, (s) => s.status === 'proposed', 'step');
    await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'approve' });
    const block = await client.waitForBlock(paneId, 'sleep 60', 20_000);
    expect(block.exitCode).toBe(130);
    const result = toolResults(await model.waitForRequest(2))[0];
    expect(result?.content).toContain('ran past the step timeout');
    expect(result?.is_error).toBe(true);
    await waitForStep(client, (s) => s.status === 'failed' && s.detail === 'timed out', 'the failed step');
  });

  it('keeps what streamed when the stream breaks mid-answer', async () => {
    const { client, model, paneId } = await open();
    model.script({ parts: [{ text: 'Partial answer that will break' }], cutAfterEvents: 5 });
    await client.request('agent.send', { text: 'hi', attachments: [], paneId });
    const view = await client.waitFor(
      () => (latest(client)?.status === 'idle' && latest(client)?.items.some((item) => item.role === 'error') ? latest(client) : undefined),
      15_000,
      'error after cut',
    );
    const answer = view.items.find((item) => item.role === 'assistant');
    expect(answer?.role === 'assistant' && answer.text).toContain('Partial');
    // One message says why it stopped: the error card, not also a note on the answer.
    expect(answer?.role === 'assistant' && answer.interrupted).toBeUndefined();
    const errors = view.items.filter((item) => item.role === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ text: expect.stringContaining('broke off'), retryable: true, attempts: 1 });

    // Retry asks for the answer again; the model sees what arrived and that it broke off.
    model.script({ parts: [{ text: 'The whole answer.' }] });
    await client.request('agent.retry', {});
    const again = await model.waitForRequest(2);
    expect(requestText(again)).toContain('Partial answer');
    expect(requestText(again)).toContain('broke off');
    const done = await waitForIdleWithAnswer(client, 'The whole answer.');
    expect(done.items.find((item) => item.role === 'error')).toMatchObject({ retryable: false });
  });

  it('a retry waits in a card with its countdown; cancelled, the card stays as a marker and nothing is sent again', async () => {
    const { client, model, paneId } = await open();
    model.script({ status: 429, headers: { 'retry-after': '30' } }, { parts: [{ text: 'Never sent.' }] });
    await client.request('agent.send', { text: 'hi', attachments: [], paneId });
    const card = await client.waitFor(() => latest(client)?.items.find((item) => item.role === 'retry'), 15_000, 'the retry card');
    expect(card).toMatchObject({ state: 'waiting', attempt: 2, attempts: 5, reason: expect.stringContaining('Rate limited by') });
    expect(card.role === 'retry' && card.secondsLeft).toBeGreaterThan(25);
    expect(latest(client)?.status).toBe('retrying');
    expect((await client.request('agent.cancel', { everything: false })).cancelled).toBe('stream');
    const settled = await client.waitFor(() => (latest(client)?.status === 'idle' ? latest(client) : undefined), 5_000, 'idle');
    const marker = settled.items.find((item) => item.role === 'retry');
    expect(marker).toMatchObject({ state: 'cancelled', id: card.id });
    expect(settled.items.some((item) => item.role === 'error')).toBe(false);
    expect(model.requests).toHaveLength(1);
  });

  it('after the last attempt the error says it retried, offers Retry and what was sent', async () => {
    const { client, model, paneId } = await open();
    const fail = { status: 500, headers: { 'retry-after': '0' } };
    model.script(fail, fail, fail, fail, fail, { parts: [{ text: 'Back again.' }] });
    await client.request('agent.send', { text: 'please', attachments: [], paneId });
    const error = await client.waitFor(() => latest(client)?.items.find((item) => item.role === 'error'), 15_000, 'the error');
    expect(error).toMatchObject({ attempts: 5, retryable: true, text: expect.stringContaining('failed (500)') });
    // The retry cards left once each attempt went out.
    expect(latest(client)?.items.some((item) => item.role === 'retry')).toBe(false);
    const sent = await client.request('agent.sent', { itemId: (error.role === 'error' && error.sentId) || '' });
    expect(sent.payload).toContain('please');
    await client.request('agent.retry', {});
    await waitForIdleWithAnswer(client, 'Back again.');
    expect(model.requests).toHaveLength(6);
  });

  it("offers the endpoint's own models, kept for a while; the catalog when it does not list them", async () => {
    const { client, model } = await open();
    model.listModels(['claude-zeta-1', 'claude-alpha-2']);
    const listed = await client.request('agent.models', {});
    expect(listed).toEqual({ backend: 'anthropic', models: ['claude-alpha-2', 'claude-zeta-1'], source: 'endpoint' });
    // Asked again: the kept list, no second request.
    expect(await client.request('agent.models', { backend: 'anthropic' })).toEqual(listed);
    expect(model.modelListRequests).toBe(1);
    // The other backend has no key and no local endpoint: suggestions for it, never Anthropic's.
    const other = await client.request('agent.models', { backend: 'openai-compatible' });
    expect(other).toMatchObject({ backend: 'openai-compatible', source: 'catalog', note: expect.stringContaining('no model is connected') });
    expect(other.models.some((id) => id.startsWith('claude'))).toBe(false);
  });

  it('lists models of an OpenAI-compatible endpoint, and falls back to suggestions when it answers 404', async () => {
    const { client, model } = await open({ openAiCompatible: true });
    const fallback = await client.request('agent.models', {});
    expect(fallback).toMatchObject({ backend: 'openai-compatible', source: 'catalog', note: expect.stringContaining('did not list its models') });
    expect(fallback.models).toContain('llama3.1');
    // A new connection (another model chosen) asks the endpoint again.
    model.listModels(['qwen2.5-coder:7b', 'llama3:8b']);
    await client.request('agent.model', { model: 'llama3:8b' });
    expect(await client.request('agent.models', {})).toEqual({ backend: 'openai-compatible', models: ['llama3:8b', 'qwen2.5-coder:7b'], source: 'endpoint' });
    expect(model.modelListRequests).toBe(2);
  });
});
