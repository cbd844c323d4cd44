import { chordLabel } from '../actions/chords';

/** What a key does in the history search overlay. */
export type OverlayCommand =
  | 'up'
  | 'down'
  | 'pageUp'
  | 'pageDown'
  | 'insert'
  | 'run'
  | 'copy'
  | 'neighbours'
  | 'open'
  | 'ask'
  | 'forget'
  | 'toggleMatch'
  | 'close';

/** The fields of a KeyboardEvent the overlay reads. */
export type OverlayKey = Pick<KeyboardEvent, 'key' | 'code' | 'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey'>;

/**
 * The overlay's keys, as chords. Alt+letter is read by the key's position (`code`), so it
 * works on macOS, where Option+C types "ç", and on other layouts. None of them is a letter
 * the browser keeps for itself (Alt+D, Alt+E, Alt+F).
 */
export const OVERLAY_CHORDS: Record<Exclude<OverlayCommand, 'up' | 'down' | 'pageUp' | 'pageDown' | 'close'>, string> = {
  insert: 'Enter',
  run: 'Shift+Enter',
  copy: 'Alt+C',
  neighbours: 'Alt+N',
  open: 'Alt+O',
  ask: 'Alt+A',
  forget: 'Shift+Delete',
  toggleMatch: 'Alt+Z',
};

const PLAIN: Record<string, OverlayCommand> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  PageUp: 'pageUp',
  PageDown: 'pageDown',
  Enter: 'insert',
  Escape: 'close',
};

const ALT_BY_CODE: Record<string, OverlayCommand> = { KeyC: 'copy', KeyN: 'neighbours', KeyO: 'open', KeyA: 'ask', KeyZ: 'toggleMatch' };

/** The command a key press means in the overlay, or undefined to leave it to the search field. */
export function overlayCommand(event: OverlayKey): OverlayCommand | undefined {
  const { ctrlKey, altKey, metaKey, shiftKey } = event;
  if (ctrlKey || metaKey) return undefined;
  if (altKey) return shiftKey ? undefined : ALT_BY_CODE[event.code];
  if (shiftKey) {
    if (event.key === 'Enter') return 'run';
    if (event.key === 'Delete') return 'forget';
    return undefined;
  }
  return PLAIN[event.key];
}

/** The key shown on an action's button: `Shift+Enter`, `⌥C` on macOS. */
export function overlayKeyLabel(command: keyof typeof OVERLAY_CHORDS): string {
  const chord = OVERLAY_CHORDS[command];
  return chord.includes('+') ? chordLabel(chord) : chord;
}
