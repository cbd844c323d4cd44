import { findAction } from './appActions';
import { chordFromEvent } from './chords';
import { actionForChord } from './keybindings';
import { isTextField } from './textFields';

/**
 * App shortcuts are caught in the capture phase, before xterm sees the key, so a bound
 * chord never also reaches the shell, and before any text field or panel handler, so they
 * work wherever the focus is. Unbound keys, the editing chords a text field keeps
 * (keybindings.ts) and actions that decline pass through. Nothing else handles Tandem's
 * chords: the desktop app has no menu accelerators (its Ctrl+W, Ctrl+R are gone).
 */
export function installShortcuts(): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.isComposing) return;
    const chord = chordFromEvent(event);
    if (!chord) return;
    const actionId = actionForChord(chord, { inTextField: isTextField(event.target) });
    const action = actionId ? findAction(actionId) : undefined;
    if (!action || (action.enabled && !action.enabled())) return;
    if (event.repeat && !isRepeatable(event)) {
      // Holding "new tab" must not open twenty tabs, nor leak the key to the shell.
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    if (action.run() === false) return;
    event.preventDefault();
    event.stopPropagation();
  };
  window.addEventListener('keydown', onKeyDown, true);
  return () => window.removeEventListener('keydown', onKeyDown, true);
}

/** Holding zoom or block-jump keys should keep going; holding "new tab" should not. */
function isRepeatable(event: KeyboardEvent): boolean {
  return /^(Arrow|Page)|^[=\-+]$/.test(event.key);
}
