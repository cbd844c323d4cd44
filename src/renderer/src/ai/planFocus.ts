import type { MouseEvent, SyntheticEvent } from 'react';

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
