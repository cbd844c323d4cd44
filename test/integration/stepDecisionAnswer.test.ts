import { describe, expect, it } from 'vitest';
import type { ConversationView, PlanStepView } from '../../src/shared/agent';
import { planIdOf, waitForIdleWithAnswer, waitForStep } from '../support/agentConversation';
import { useAgentEngine } from '../support/agentEngine';
import type { EngineClient } from '../support/engineClient';

const open = useAgentEngine();

/** The step as the conversation views that arrived since `from` (an index into the client's events) show it. */
function shownSince(client: EngineClient, from: number, stepId: string): PlanStepView[] {
  return client.events
    .slice(from)
    .filter((event) => event.event === 'agent.conversation')
    .flatMap((event) => (event.payload as ConversationView).items)
    .flatMap((item) => (item.role === 'plan' ? item.plan.steps : []))
    .filter((step) => step.id === stepId);
}

describe("the answer to a decision on a plan step (the step's keys go first)", () => {
  it('comes once the panel shows the decision: approved and typed, or denied', async () => {
    const { client, model, paneId } = await open();
    model.script(
      {
        parts: [
          { toolUse: { id: 'toolu_1', name: 'run_command', input: { command: 'echo answered-after', purpose: 'one' } } },
          { toolUse: { id: 'toolu_2', name: 'run_command', input: { command: 'echo never', purpose: 'two' } } },
        ],
      },
      { parts: [{ text: 'Both handled.' }] },
    );
    await client.request('agent.send', { text: 'two steps', attachments: [], paneId });
    const first = await waitForStep(client, (s) => s.index === 1 && s.status === 'proposed', 'step 1 proposed');
    const planId = planIdOf(client);

    let from = client.events.length;
    await client.request('agent.step', { planId, stepId: first.id, action: 'approve' });
    // Events are handled in the order they arrive: those seen now came before the answer. The view
    // shows the step typed ("running"), or only approved when its echo was slow to come (loaded machine).
    expect(shownSince(client, from, first.id).some((step) => step.status === 'running' || step.status === 'approved')).toBe(true);

    // A decision the plan cannot take is refused at once, and changes nothing.
    await expect(client.request('agent.step', { planId, stepId: first.id, action: 'approve' })).rejects.toThrow('Step 1 is already running');

    await client.waitForBlock(paneId, 'echo answered-after');
    await waitForStep(client, (s) => s.index === 1 && s.status === 'done', 'step 1 done');
    const second = await waitForStep(client, (s) => s.index === 2 && s.status === 'proposed', 'step 2 proposed');
    from = client.events.length;
    await client.request('agent.step', { planId, stepId: second.id, action: 'deny', reason: 'enough' });
    expect(shownSince(client, from, second.id).map((step) => step.status)).toContain('denied');
    await waitForIdleWithAnswer(client, 'Both handled');
  });
});
