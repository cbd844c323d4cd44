import type { ReactNode } from 'react';
import { focusPlanAfter, keepFocusOnClick } from './planFocus';

interface DecisionButtonProps {
  action: string;
  title: string;
  disabled?: boolean;
  /** The button goes with its step's turn: hand the keyboard to the plan card first (not for Edit, which opens a field). */
  leavesCard?: boolean;
  onDecide: () => void;
  children: ReactNode;
}

/** A decision on a step (the plan's or a child agent's): a mouse click leaves the keyboard where it was. */
export function DecisionButton({ action, title, disabled = false, leavesCard = true, onDecide, children }: DecisionButtonProps) {
  return (
    <button
      type="button"
      data-action={action}
      title={title}
      disabled={disabled}
      onMouseDown={keepFocusOnClick}
      onClick={(event) => {
        if (leavesCard) focusPlanAfter(event);
        onDecide();
      }}
    >
      {children}
    </button>
  );
}

/** "Deny with reason…": opens the field whose reason the (child) agent's model is told. */
export function DenyReasonToggle({ action, told, open, onToggle }: { action: string; told: string; open: boolean; onToggle: () => void }) {
  return (
    <button type="button" className="plan-step__reason-toggle" data-action={action} title={`Deny, telling the ${told} why`} aria-expanded={open} onClick={onToggle}>
      Deny with reason…
    </button>
  );
}
