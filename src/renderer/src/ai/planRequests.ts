import type { PlanAction, StepAction } from '../../../shared/agent';
import { planAction, stepAction } from './agentRequests';
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

export function decidePlan(planId: string, action: PlanAction): void {
  void planAction({ planId, action });
}
