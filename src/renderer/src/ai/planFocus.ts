import type { KeyboardEvent, MouseEvent, SyntheticEvent } from 'react';

/** Plan buttons do not take focus from a mouse click: the terminal (or the input) keeps it. */
export function keepFocusOnClick(event: MouseEvent): void {
  event.preventDefault();
}

/**
 * A control (or the field it belongs to) is about to disappear with its step's new state;
 * hand focus to the plan card, where the one-letter keys keep working. Focus elsewhere (the
 * terminal, the AI input) stays where it is; focus on nothing (the page) goes to the card too,
 * so the next keys are not lost.
 */
export function focusPlanAfter(event: SyntheticEvent<HTMLElement>): void {
  focusPlanFrom(event.currentTarget);
}

/** `focusPlanAfter` for a control or field known by its element (a field's row, say). */
export function focusPlanFrom(control: HTMLElement | null): void {
  if (!control) return;
  const active = document.activeElement;
  const nowhere = active === null || active === document.body;
  if (!nowhere && active !== control && !control.contains(active)) return;
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
