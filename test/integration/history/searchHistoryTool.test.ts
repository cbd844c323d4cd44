import { describe, expect, it } from 'vitest';
import { planIdOf, toolResults, waitForIdleWithAnswer, waitForStep } from '../../support/agentConversation';
import { useAgentEngine } from '../../support/agentEngine';
import { recordsWhen } from '../../support/historyRecords';

// The agent's search_history against the scripted model server, through the real SDK: it finds
// the user's stored block, and the agent's own step is recorded as the agent's, with its decision.

const open = useAgentEngine();

describe('search_history', () => {
  it('returns the stored record to the model, and the step the agent then ran is recorded as its own', async () => {
    const { client, model, paneId, engine } = await open({ configToml: '[history]\n' });
    const failing = `sh -c 'echo "gyp info it worked if it ends with ok"; echo "gyp ERR! node-gyp rebuild failed" >&2; exit 1'`;
    client.type(paneId, `${failing}\r`);
    await client.waitForBlock(paneId, failing);
    client.type(paneId, 'echo an-unrelated-success\r');
    await client.waitForBlock(paneId, 'echo an-unrelated-success');
    await recordsWhen(engine.history, {}, (found) => found.length === 2, 'both blocks to be stored');

    model.script(
      { parts: [{ toolUse: { id: 'h1', name: 'search_history', input: { query: 'node-gyp rebuild failed', failed: true } } }] },
      { parts: [{ toolUse: { id: 's1', name: 'run_command', input: { command: 'echo agent-step-ran', purpose: 'a step' } } }] },
      { parts: [{ text: 'Rebuilt.' }] },
    );
    await client.request('agent.send', { text: 'how did I fix the node-gyp error last time?', attachments: [], paneId });
    const step = await waitForStep(client, (item) => item.index === 1 && item.status === 'proposed', 'the step');

    const [result] = toolResults(await model.waitForRequest(2));
    expect(result).toMatchObject({ tool_use_id: 'h1' });
    expect(result!.is_error ?? false).toBe(false);
    // The failed block, found by a line of its output, with its facts and digest; not the success.
    expect(result!.content).toMatch(/^1 record\(s\), newest first:/);
    expect(result!.content).toContain(`$ ${failing}`);
    expect(result!.content).toMatch(/exit 1 · [\d.]+ s · you · cwd /);
    expect(result!.content).toContain('<output kind="digest">');
    expect(result!.content).toContain('gyp ERR! node-gyp rebuild failed');
    expect(result!.content).not.toContain('an-unrelated-success');

    await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'approve' });
    await waitForIdleWithAnswer(client, 'Rebuilt.');
    const [stepRecord] = await recordsWhen(engine.history, { query: 'agent-step-ran' }, (found) => found.length === 1, "the agent's step to be stored");
    expect(stepRecord).toMatchObject({ command: 'echo agent-step-ran', author: 'agent-step', decision: 'allowed by you', exitCode: 0 });
    expect(stepRecord!.conversation).toEqual(expect.any(String));
  }, 120_000);

  it('says what was wrong with bad input, and searches nothing', async () => {
    const { client, model, paneId } = await open();
    model.script({ parts: [{ toolUse: { id: 'h1', name: 'search_history', input: { since: 'last tuesday' } } }] }, { parts: [{ text: 'Sorry.' }] });
    await client.request('agent.send', { text: 'what did I run?', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'Sorry.');
    const [result] = toolResults(await model.waitForRequest(2));
    expect(result).toMatchObject({ tool_use_id: 'h1', is_error: true, content: expect.stringContaining('since "last tuesday" is neither a span') });
  }, 60_000);
});
