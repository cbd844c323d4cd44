/**
 * Text fields of the page (the AI input, the find bar, the palette, settings, a step being
 * edited) as opposed to a terminal, whose keyboard input is xterm's hidden textarea.
 */
const TEXT_INPUT_TYPES = new Set(['text', 'search', 'url', 'email', 'password', 'tel', 'number']);

export function isTextField(target: EventTarget | null): target is HTMLInputElement | HTMLTextAreaElement {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLTextAreaElement) return !target.classList.contains('xterm-helper-textarea');
  if (target instanceof HTMLInputElement) return TEXT_INPUT_TYPES.has(target.type);
  return false;
}

/** The focused element is a text field (not a terminal). */
export function editingText(): boolean {
  return isTextField(document.activeElement);
}

/** The selected text of the focused text field, if any. */
export function fieldSelection(): string {
  const field = document.activeElement;
  if (!isTextField(field)) return '';
  const { selectionStart: start, selectionEnd: end } = field;
  // Number inputs have no selection API (null).
  if (start === null || end === null || start === end) return '';
  return field.value.slice(start, end);
}
