import type { HistoryEntry } from '../../../shared/history';
import { engine } from '../app/engine';
import { askAiAboutBlock, focusAiInput } from '../ai/panelControl';
import { useAiPanelStore } from '../ai/aiPanelStore';
import { textForPrompt } from '../ai/promptText';
import { canRerun } from '../blocks/blockActions';
import { useBlocksStore } from '../blocks/blocksStore';
import { useLayoutStore } from '../layout/layoutStore';
import { writeClipboard } from '../platform/clipboard';
import { paneSessions } from '../terminal/paneSessions';
import { closeHistorySearch } from './historySearch';
import { selectedRecord, useHistorySearch } from './historySearchStore';
import { aiQuestionAbout } from './historyQuestion';

function warn(text: string): void {
  useHistorySearch.getState().set({ notice: { level: 'warning', text } });
}

function inform(text: string): void {
  useHistorySearch.getState().set({ notice: { level: 'info', text } });
}

/**
 * Why the command cannot go to the overlay's pane now, or undefined when it can: only at a
 * prompt, never into a running command or a full-screen program (nothing is typed blindly);
 * a multi-line command only where the shell takes a bracketed paste as one edit.
 */
export function promptRefusal(paneId: number | undefined, command: string): string | undefined {
  const session = paneId !== undefined ? paneSessions.get(paneId) : undefined;
  if (paneId === undefined || !session || session.hasExited) return 'No terminal pane is open to take the command.';
  if (!canRerun(paneId)) {
    return session.terminal.buffer.active.type === 'alternate'
      ? 'A full-screen program is running in the pane; nothing was typed. Quit it first.'
      : 'The pane is running a command, not at its prompt; nothing was typed. Wait for the prompt.';
  }
  if (command.includes('\n') && !session.terminal.modes.bracketedPasteMode) return 'This shell would run each line on its own; copy the command instead.';
  return undefined;
}

/** Enter: the command goes on the pane's prompt, not run, through xterm's paste (bracketed when the shell asks for it). */
export function insertSelected(): void {
  put('insert');
}

/** Shift+Enter: typed into the pane and run, as if the person typed it (it is their action: no approval gate). */
export function runSelected(): void {
  put('run');
}

function put(how: 'insert' | 'run'): void {
  const state = useHistorySearch.getState();
  const record = selectedRecord(state);
  if (!record) return;
  const text = textForPrompt(record.command);
  const refusal = promptRefusal(state.paneId, text);
  const session = state.paneId !== undefined ? paneSessions.get(state.paneId) : undefined;
  if (refusal || !session) {
    warn(refusal ?? 'No terminal pane is open to take the command.');
    return;
  }
  closeHistorySearch(false);
  session.paste(text);
  if (how === 'run') session.typeText('\r');
  session.focus();
}

export async function copySelected(): Promise<void> {
  const record = selectedRecord(useHistorySearch.getState());
  if (!record) return;
  if (await writeClipboard(record.command)) inform('Command copied');
  else warn('The clipboard refused the command');
}

/** Why the record's block cannot be shown in its pane, or undefined when it can. */
export function openRefusal(record: HistoryEntry): string | undefined {
  if (record.imported) return "Imported from a shell's history file: it never ran in a pane";
  if (!record.blockId) return 'Not in any open pane: it ran in an earlier Tandem run or in a pane since closed';
  const session = paneSessions.get(paneOfBlock(record.blockId));
  if (!session?.blocks.markers.lines(record.blockId)) return "Its output has left the pane's scrollback";
  if (session.terminal.buffer.active.type === 'alternate') return 'A full-screen program covers its pane';
  return undefined;
}

function paneOfBlock(blockId: string): number {
  return Number(/^p(\d+)b\d+$/.exec(blockId)?.[1]);
}

/** Alt+O: the block in its pane's scrollback, selected, with the keyboard in that pane. */
export function openSelected(): void {
  const record = selectedRecord(useHistorySearch.getState());
  if (!record) return;
  const refusal = openRefusal(record);
  if (refusal || !record.blockId) {
    warn(refusal ?? 'The block is not in a pane');
    return;
  }
  const paneId = paneOfBlock(record.blockId);
  const session = paneSessions.get(paneId);
  const top = session?.blocks.markers.lines(record.blockId)?.top;
  if (!session || top === undefined) return;
  closeHistorySearch(false);
  useLayoutStore.getState().focusPane(paneId);
  useBlocksStore.getState().select(paneId, record.blockId);
  session.terminal.scrollToLine(top);
  session.focus();
}

/**
 * Alt+A: a block still in a pane is attached to the AI panel as a dragged one is; an older
 * record goes into the AI input as text (its digest was scrubbed when it was stored, and a
 * message is scrubbed again before it is sent), for the person to ask their question.
 */
export function askAboutSelected(): void {
  const record = selectedRecord(useHistorySearch.getState());
  if (!record) return;
  closeHistorySearch(false);
  const block = record.blockId ? useBlocksStore.getState().byId[record.blockId] : undefined;
  if (block) {
    askAiAboutBlock(block);
    return;
  }
  const panel = useAiPanelStore.getState();
  const draft = panel.draft.trim();
  panel.setDraft(`${aiQuestionAbout(record)}${draft ? `\n\n${draft}` : ''}`);
  focusAiInput();
}

/** Shift+Delete asks first; this is the confirmed part. */
export async function forgetRecord(record: HistoryEntry): Promise<void> {
  useHistorySearch.getState().set({ confirmForget: undefined });
  try {
    // A result standing for several runs forgets them all: otherwise the next older run takes its place.
    await engine().request('history.forget', record.runs !== undefined && record.runs > 1 ? { command: record.command } : { ids: [record.id] });
  } catch (error) {
    warn(`Not forgotten: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  const state = useHistorySearch.getState();
  const gone = (entry: HistoryEntry) => entry.id === record.id || (record.runs !== undefined && record.runs > 1 && entry.command === record.command);
  const results = state.results.filter((entry) => !gone(entry));
  const neighbours = state.neighbours && { ...state.neighbours, records: state.neighbours.records.filter((entry) => !gone(entry)) };
  const shown = neighbours?.records ?? results;
  state.set({ results, neighbours, selected: Math.min(state.selected, Math.max(0, shown.length - 1)), notice: { level: 'info', text: 'Forgotten: the record is deleted from the history' } });
}

export function askToForgetSelected(): void {
  const state = useHistorySearch.getState();
  const record = selectedRecord(state);
  if (record) state.set({ confirmForget: record });
}
