import type { PlanAction, StepAction } from '../../../shared/agent';
import { childApproval, planAction, stepAction } from './agentRequests';
import { useAiPanelStore } from './aiPanelStore';

/** A decision on a step; `edit` opens the step's editor, the edited command goes with `saveEdit`. */
export function decideStep(planId: string, stepId: string, action: StepAction, reason?: string): void {
  if (action === 'edit') {
    useAiPanelStore.getState().setEditingStep(stepId);
    return;
  }
  void stepAction({ planId, stepId, action, reason: reason?.trim() || undefined });
}

/** Editing approves the edited command; an unchanged one is simply approved. */
export function saveEdit(planId: string, stepId: string, original: string, command: string): boolean {
  const edited = command.replace(/\s+$/, '');
  if (edited.trim() === '') return false;
  useAiPanelStore.getState().setEditingStep(undefined);
  void stepAction(
    edited === original ? { planId, stepId, action: 'approve' } : { planId, stepId, action: 'edit', command: edited },
  );
  return true;
}

/** The user's answer to a child agent's step that asks (a deny's reason goes to the child's model). */
export function decideChildStep(planId: string, stepId: string, requestId: string, decision: 'allow' | 'deny', note?: string): void {
  void childApproval({ planId, stepId, requestId, decision, note: note?.trim() || undefined });
}

export function decidePlan(planId: string, action: PlanAction): void {
  void planAction({ planId, action });
}
