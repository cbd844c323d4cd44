import type { ConversationView, PlanStepView } from '../../src/shared/agent';
import type { EngineClient } from './engineClient';
import type { RecordedRequest } from './modelServer';

// Following the agent's conversation from a test's engine client, and reading what the
// scripted model received.

export function latest(client: EngineClient): ConversationView | undefined {
  return client.eventsOf('agent.conversation').at(-1);
}

export function waitForStep(client: EngineClient, predicate: (step: PlanStepView) => boolean, what: string): Promise<PlanStepView> {
  return client.waitFor(
    () => {
      const view = latest(client);
      const plan = view?.items.filter((item) => item.role === 'plan').at(-1);
      return plan?.role === 'plan' ? plan.plan.steps.find(predicate) : undefined;
    },
    15_000,
    what,
  );
}

export function planIdOf(client: EngineClient): string {
  const plan = latest(client)?.items.filter((item) => item.role === 'plan').at(-1);
  if (plan?.role !== 'plan') throw new Error('no plan');
  return plan.plan.id;
}

export function waitForIdleWithAnswer(client: EngineClient, text: string): Promise<ConversationView> {
  return client.waitFor(
    () => {
      const view = latest(client);
      return view?.status === 'idle' && view.items.some((item) => item.role === 'assistant' && item.text.includes(text)) ? view : undefined;
    },
    15_000,
    `answer "${text}"`,
  );
}

/** The tool_result blocks of a request the model server received. */
export function toolResults(request: RecordedRequest): { tool_use_id: string; content: string; is_error?: boolean }[] {
  const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
  const last = messages.at(-1);
  if (!last || !Array.isArray(last.content)) return [];
  return last.content.filter((part: { type?: string }) => part.type === 'tool_result') as never;
}

export function requestText(request: RecordedRequest): string {
  return JSON.stringify(request.body?.messages ?? []);
}
