import { canRerun } from '../blocks/blockActions';
import { focusedPaneId } from '../layout/layoutStore';
import { paneSessions } from '../terminal/paneSessions';
import { textForPrompt } from './promptText';

export type InsertResult = 'inserted' | 'empty' | 'no-pane' | 'busy' | 'multi-line-unsafe';

export const INSERT_RESULT_TEXT: Record<InsertResult, string> = {
  inserted: 'Inserted; Enter runs it',
  empty: 'Nothing to insert',
  'no-pane': 'No terminal pane is open',
  busy: 'The terminal is busy; wait for its prompt',
  'multi-line-unsafe': 'This shell would run each line; copy it instead',
};

/**
 * Puts code on the active pane's prompt without running it, through xterm's paste (bracketed
 * when the shell asked for it). Without bracketed paste each line break would run a line, so
 * multi-line code is refused there. The terminal gets focus, for the user to review it.
 */
export function insertIntoTerminal(code: string): InsertResult {
  const text = textForPrompt(code);
  if (text === '') return 'empty';
  const paneId = focusedPaneId();
  const session = paneId !== undefined ? paneSessions.get(paneId) : undefined;
  if (paneId === undefined || !session || session.hasExited) return 'no-pane';
  if (!canRerun(paneId)) return 'busy';
  if (text.includes('\n') && !session.terminal.modes.bracketedPasteMode) return 'multi-line-unsafe';
  session.paste(text);
  session.focus();
  return 'inserted';
}
