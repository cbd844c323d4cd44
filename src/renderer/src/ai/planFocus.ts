import type { KeyboardEvent, MouseEvent, SyntheticEvent } from 'react';

/** Plan buttons do not take focus from a mouse click: the terminal (or the input) keeps it. */
export function keepFocusOnClick(event: MouseEvent): void {
  event.preventDefault();
}

/**
 * A control used from the keyboard is about to disappear with its step's new state; hand
 * focus to the plan card, where the one-letter keys keep working.
 */
export function focusPlanAfter(event: SyntheticEvent<HTMLElement>): void {
  const control = event.currentTarget;
  if (document.activeElement !== control && !control.contains(document.activeElement)) return;
  control.closest<HTMLElement>('[data-testid="plan"]')?.focus({ preventScroll: true });
}

/**
 * Esc in one of a plan's text fields (note, Edit, Deny with reason) only leaves the field:
 * focus goes to the plan card and the typed text is kept. It never reaches the panel, where
 * Esc cancels the agent; a second Esc, from the card, does that.
 */
export function leaveFieldOnEscape(event: KeyboardEvent<HTMLElement>): void {
  event.preventDefault();
  event.stopPropagation();
  event.currentTarget.closest<HTMLElement>('[data-testid="plan"]')?.focus({ preventScroll: true });
}
