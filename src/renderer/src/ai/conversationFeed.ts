import type { ConversationView } from '../../../shared/agent';
import { useAiPanelStore } from './aiPanelStore';
import type { AgentDelta } from './conversationDeltas';
import { useConversationStore } from './conversationStore';
import { DeltaBatcher } from './deltaBatcher';

const deltas = new DeltaBatcher((batch) => useConversationStore.getState().appendDeltas(batch));

/**
 * A whole view from the engine (event or request result). It holds all text streamed before
 * it, so deltas still waiting for their frame are dropped rather than applied twice.
 */
export function receiveConversation(view: ConversationView): void {
  deltas.discard();
  useConversationStore.getState().replace(view);
  const panel = useAiPanelStore.getState();
  if (panel.editingStepId !== undefined && !isProposedStep(view, panel.editingStepId)) panel.setEditingStep(undefined);
}

/** Streaming text, applied on the next animation frame together with whatever else arrived. */
export function receiveDelta(delta: AgentDelta): void {
  deltas.push(delta);
}

function isProposedStep(view: ConversationView, stepId: string): boolean {
  return view.items.some(
    (item) => item.role === 'plan' && item.plan.steps.some((step) => step.id === stepId && step.status === 'proposed'),
  );
}
