import { useRef, useState, type KeyboardEvent } from 'react';
import { useAiPanelStore } from './aiPanelStore';
import { focusPlanFrom, keepFocusOnClick, leaveFieldOnEscape } from './planFocus';

interface StepDenyReasonProps {
  /** Where the typed reason is kept while the field is closed (one per step, or per child request). */
  draftKey: string;
  onDeny: (reason: string) => void;
  onClose: () => void;
  /** Whose model is told the reason: "agent", "child agent". */
  told?: string;
  testId?: string;
}

/**
 * Deny a step with a reason the model is told. Enter denies, and the plan card takes the
 * keyboard (the field goes with the step's turn); Esc closes the field and keeps the reason
 * for when it opens again.
 */
export function StepDenyReason({ draftKey, onDeny, onClose, told = 'agent', testId = 'plan-step-deny-reason' }: StepDenyReasonProps) {
  const [reason, setReason] = useState(() => useAiPanelStore.getState().fieldDrafts[draftKey] ?? '');
  const row = useRef<HTMLDivElement>(null);
  const deny = () => {
    focusPlanFrom(row.current);
    useAiPanelStore.getState().setFieldDraft(draftKey, undefined);
    onDeny(reason);
    onClose();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      event.stopPropagation();
      deny();
    } else if (event.key === 'Escape') {
      leaveFieldOnEscape(event);
      onClose();
    }
  };
  return (
    <div className="plan-step__reason" ref={row}>
      <input
        data-testid={testId}
        aria-label={`Why not? (the ${told} is told)`}
        placeholder={`Why not? The ${told} is told.`}
        value={reason}
        maxLength={2_000}
        autoFocus
        onChange={(event) => {
          setReason(event.target.value);
          useAiPanelStore.getState().setFieldDraft(draftKey, event.target.value || undefined);
        }}
        onKeyDown={onKeyDown}
      />
      <button type="button" data-action="deny-confirm" onMouseDown={keepFocusOnClick} onClick={deny}>
        Deny
      </button>
    </div>
  );
}
