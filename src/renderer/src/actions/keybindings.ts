import { isMac } from '../platform/platform';
import { normalizeChord } from './chords';

/**
 * Default shortcuts. Linux and Windows use Ctrl+Shift so plain Ctrl keys stay with the
 * shell; macOS uses Cmd. The first chord of each list is the one shown in menus.
 */
const linuxBindings: Record<string, string[]> = {
  'tab.new': ['Ctrl+Shift+T'],
  'pane.close': ['Ctrl+Shift+W'],
  'tab.next': ['Ctrl+Tab', 'Ctrl+PageDown'],
  'tab.previous': ['Ctrl+Shift+Tab', 'Ctrl+PageUp'],
  'pane.splitRight': ['Ctrl+Shift+D'],
  'pane.splitDown': ['Ctrl+Shift+E'],
  'pane.menu': ['Shift+F10', 'ContextMenu'],
  'pane.focusLeft': ['Alt+ArrowLeft'],
  'pane.focusRight': ['Alt+ArrowRight'],
  'pane.focusUp': ['Alt+ArrowUp'],
  'pane.focusDown': ['Alt+ArrowDown'],
  'terminal.copy': ['Ctrl+Shift+C'],
  'terminal.paste': ['Ctrl+Shift+V'],
  'terminal.find': ['Ctrl+Shift+F'],
  // Never Ctrl+R: that is the shell's own history search.
  'history.search': ['Ctrl+Shift+R'],
  'view.zoomIn': ['Ctrl+=', 'Ctrl+Shift+='],
  'view.zoomOut': ['Ctrl+-'],
  'view.zoomReset': ['Ctrl+0'],
  'palette.show': ['Ctrl+Shift+P'],
  'settings.open': ['Ctrl+,'],
  'block.previous': ['Ctrl+Shift+ArrowUp'],
  'block.next': ['Ctrl+Shift+ArrowDown'],
  'block.menu': ['Ctrl+Shift+Enter'],
  'ai.toggle': ['Ctrl+Shift+Space'],
  // `[voice] push_to_talk_key` replaces it (src/renderer/src/voice/pushToTalkKey.ts).
  'voice.pushToTalk': ['Ctrl+Shift+M'],
};

const macBindings: Record<string, string[]> = {
  'tab.new': ['Cmd+T'],
  'pane.close': ['Cmd+W'],
  'tab.close': ['Cmd+Shift+W'],
  'tab.next': ['Cmd+Shift+]', 'Ctrl+Tab'],
  'tab.previous': ['Cmd+Shift+[', 'Ctrl+Shift+Tab'],
  'pane.splitRight': ['Cmd+D'],
  'pane.splitDown': ['Cmd+Shift+D'],
  'pane.menu': ['Shift+F10', 'ContextMenu'],
  'pane.focusLeft': ['Cmd+Alt+ArrowLeft'],
  'pane.focusRight': ['Cmd+Alt+ArrowRight'],
  'pane.focusUp': ['Cmd+Alt+ArrowUp'],
  'pane.focusDown': ['Cmd+Alt+ArrowDown'],
  'terminal.copy': ['Cmd+C'],
  'terminal.paste': ['Cmd+V'],
  'terminal.find': ['Cmd+F'],
  'history.search': ['Cmd+Shift+R'],
  'terminal.selectAll': ['Cmd+A'],
  'terminal.clear': ['Cmd+K'],
  'view.zoomIn': ['Cmd+=', 'Cmd+Shift+='],
  'view.zoomOut': ['Cmd+-'],
  'view.zoomReset': ['Cmd+0'],
  'palette.show': ['Cmd+Shift+P'],
  'settings.open': ['Cmd+,'],
  'block.previous': ['Cmd+ArrowUp'],
  'block.next': ['Cmd+ArrowDown'],
  'block.menu': ['Cmd+Shift+Enter'],
  'ai.toggle': ['Cmd+Shift+Space'],
  'voice.pushToTalk': ['Cmd+Shift+M'],
};

/**
 * Chords a focused text field keeps for its own editing, where they would otherwise run an
 * action: select to the start / end of the text (Ctrl+Shift+Up/Down; Cmd+Up/Down moves
 * there on macOS) instead of jumping between blocks, and on macOS the Edit menu's copy,
 * paste and select all. Ctrl+Shift+V pastes in a field as it does in a terminal.
 */
const linuxTextFieldChords = ['Ctrl+Shift+ArrowUp', 'Ctrl+Shift+ArrowDown', 'Ctrl+Shift+V'];
const macTextFieldChords = ['Cmd+C', 'Cmd+V', 'Cmd+A', 'Cmd+ArrowUp', 'Cmd+ArrowDown'];

const textFieldChords = new Set((isMac ? macTextFieldChords : linuxTextFieldChords).map(normalizeChord));

const defaultBindings: Record<string, string[]> = Object.fromEntries(
  Object.entries(isMac ? macBindings : linuxBindings).map(([actionId, chords]) => [actionId, chords.map(normalizeChord)]),
);

/** Chords config.toml sets in place of an action's defaults (`[history] search_key`). */
const userChords = new Map<string, string>();

let bindings: Record<string, string[]> = defaultBindings;
let actionByChord = new Map<string, string>();

function rebuild(): void {
  bindings = { ...defaultBindings };
  for (const [actionId, chord] of userChords) bindings[actionId] = [chord];
  actionByChord = new Map();
  for (const [actionId, chords] of Object.entries(bindings)) {
    for (const chord of chords) actionByChord.set(chord, actionId);
  }
  // A chord the user chose wins over a default that uses it.
  for (const [actionId, chord] of userChords) actionByChord.set(chord, actionId);
}
rebuild();

/** The chord config.toml gives an action (checked there: keyChord.ts), or undefined for its default. */
export function setUserChord(actionId: string, chord: string | undefined): void {
  const normalized = chord ? normalizeChord(chord) : undefined;
  if (userChords.get(actionId) === normalized) return;
  if (normalized) userChords.set(actionId, normalized);
  else userChords.delete(actionId);
  rebuild();
}

/** The action a chord runs; `inTextField`: pressed in a text field (not a terminal), which keeps its editing chords. */
export function actionForChord(chord: string, where: { inTextField?: boolean } = {}): string | undefined {
  if (where.inTextField && textFieldChords.has(chord)) return undefined;
  return actionByChord.get(chord);
}

export function primaryChord(actionId: string): string | undefined {
  return bindings[actionId]?.[0];
}
