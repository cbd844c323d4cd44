import { useState, type KeyboardEvent } from 'react';
import type { PlanStepView } from '../../../shared/agent';
import { useAiPanelStore } from './aiPanelStore';
import { leaveFieldOnEscape } from './planFocus';
import { saveEdit } from './planRequests';

/**
 * The step's command, editable in place: Enter saves (and approves it), Shift+Enter adds a
 * line. Esc closes the editor and keeps the edit for the next Edit; Cancel drops it.
 */
export function StepEditor({ planId, step }: { planId: string; step: PlanStepView }) {
  const draftKey = `edit:${step.id}`;
  const [command, setCommand] = useState(() => useAiPanelStore.getState().fieldDrafts[draftKey] ?? step.command);
  const cancel = () => {
    useAiPanelStore.getState().setFieldDraft(draftKey, undefined);
    useAiPanelStore.getState().setEditingStep(undefined);
  };
  const save = () => {
    useAiPanelStore.getState().setFieldDraft(draftKey, undefined);
    if (saveEdit(planId, step.id, step.command, command)) focusPlan();
  };
  const focusPlan = () =>
    document.querySelector<HTMLElement>(`[data-testid="plan"][data-plan-id="${CSS.escape(planId)}"]`)?.focus({ preventScroll: true });

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      event.stopPropagation();
      save();
    } else if (event.key === 'Escape') {
      // The draft is kept (below, as it is typed) for the next Edit.
      leaveFieldOnEscape(event);
      useAiPanelStore.getState().setEditingStep(undefined);
    }
  };

  return (
    <div className="plan-step__editor">
      <textarea
        className="plan-step__editor-input"
        data-testid="plan-step-editor"
        aria-label={`Edit the command of step ${step.index}`}
        value={command}
        rows={Math.min(8, Math.max(1, command.split('\n').length))}
        spellCheck={false}
        autoFocus
        onChange={(event) => {
          setCommand(event.target.value);
          useAiPanelStore.getState().setFieldDraft(draftKey, event.target.value !== step.command ? event.target.value : undefined);
        }}
        onKeyDown={onKeyDown}
      />
      <div className="plan-step__buttons">
        <button type="button" className="button--primary" data-action="save-edit" disabled={command.trim() === ''} onClick={save}>
          Save and run
        </button>
        <button
          type="button"
          data-action="cancel-edit"
          onClick={() => {
            cancel();
            focusPlan();
          }}
        >
          Cancel
        </button>
      </div>
    </div>
  );
}
