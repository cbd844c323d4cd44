import type { KeyboardEvent } from 'react';
import { focusActivePane } from '../terminal/paneLifecycle';
import { cancelAgent } from './agentRequests';
import { useConversationStore } from './conversationStore';
import { canAllowAll, currentPlan, decisionStep, PLAN_KEYS } from './planDecisions';
import { decidePlan, decideStep } from './planRequests';

function isTextField(target: EventTarget | null): target is HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement {
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/** Ctrl+C copies when there is something selected (in a field or in the conversation). */
function hasSelection(target: EventTarget | null): boolean {
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) {
    return target.selectionStart !== null && target.selectionStart !== target.selectionEnd;
  }
  const selection = window.getSelection();
  return selection !== null && !selection.isCollapsed && selection.toString() !== '';
}

function isCtrlC(event: KeyboardEvent): boolean {
  return event.ctrlKey && !event.shiftKey && !event.altKey && !event.metaKey && event.code === 'KeyC';
}

/**
 * A plan waits for the user (nothing streams or runs): Esc from a text field must not cancel
 * it. Returns the plan card to move focus to.
 */
function waitingPlanCard(): HTMLElement | null {
  const conversation = useConversationStore.getState().conversation;
  const plan = currentPlan(conversation);
  if (!plan) return null;
  const waiting = conversation?.status === 'awaiting-approval' || (conversation?.status === 'thinking' && plan.decisionStepId !== undefined);
  return waiting ? document.querySelector<HTMLElement>(`[data-testid="plan"][data-plan-id="${CSS.escape(plan.id)}"]`) : null;
}

/**
 * Keys anywhere in the panel (bubbling from its fields and buttons): Esc, and Ctrl+C without
 * a selection, cancel what the agent does (the engine decides what that is; twice within a
 * second stops everything). Esc with nothing to cancel goes back to the terminal. Esc in a
 * text field never cancels a plan waiting for the user: it goes to the plan card, keeping
 * what was typed (Esc again cancels). Outside text fields, Y / N / E / S / A decide.
 */
export function onPanelKeyDown(event: KeyboardEvent<HTMLElement>): void {
  if (event.defaultPrevented || event.nativeEvent.isComposing) return;
  if (event.key === 'Escape' && !event.ctrlKey && !event.altKey && !event.metaKey) {
    event.preventDefault();
    const card = isTextField(event.target) ? waitingPlanCard() : null;
    if (card) {
      card.focus({ preventScroll: true });
      return;
    }
    void cancelAgent().then((result) => {
      if (result?.cancelled === 'nothing') focusActivePane();
    });
    return;
  }
  if (isCtrlC(event)) {
    if (hasSelection(event.target)) return;
    event.preventDefault();
    void cancelAgent();
    return;
  }
  if (isTextField(event.target) || event.ctrlKey || event.altKey || event.metaKey) return;
  const action = PLAN_KEYS[event.key.toLowerCase()];
  if (!action) return;
  const plan = currentPlan(useConversationStore.getState().conversation);
  if (!plan) return;
  if (action === 'allow-all') {
    // A plan-level choice: it does not wait for a step's turn (the Allow all button shows while steps are undecided).
    if (!canAllowAll(plan)) return;
    event.preventDefault();
    decidePlan(plan.id, 'allow-all');
    return;
  }
  const step = decisionStep(plan);
  // Only a command is edited in place: E does nothing on a file edit, a look or a UI action.
  if (!step || (action === 'edit' && (step.kind ?? 'command') !== 'command')) return;
  event.preventDefault();
  decideStep(plan.id, step.id, action);
}
