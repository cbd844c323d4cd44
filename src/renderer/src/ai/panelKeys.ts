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
 * Keys anywhere in the panel (bubbling from its fields and buttons): Esc, and Ctrl+C without
 * a selection, cancel what the agent does (the engine decides what that is; twice within a
 * second stops everything). Esc with nothing to cancel goes back to the terminal. Outside
 * text fields, Y / N / E / S / A decide the next proposed step.
 */
export function onPanelKeyDown(event: KeyboardEvent<HTMLElement>): void {
  if (event.defaultPrevented || event.nativeEvent.isComposing) return;
  if (event.key === 'Escape' && !event.ctrlKey && !event.altKey && !event.metaKey) {
    event.preventDefault();
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
  if (!step) return;
  event.preventDefault();
  decideStep(plan.id, step.id, action);
}
