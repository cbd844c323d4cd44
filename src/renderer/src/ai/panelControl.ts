import type { Block } from '../../../shared/blocks';
import { blockStatus } from '../blocks/blockStatus';
import { focusActivePane } from '../terminal/paneLifecycle';
import { summarizeBlock } from './agentRequests';
import { useAiPanelStore } from './aiPanelStore';

export const AI_PANEL_SELECTOR = '[data-testid="ai-panel"]';

export function panelHasFocus(): boolean {
  return document.activeElement?.closest(AI_PANEL_SELECTOR) != null;
}

/** Opens the panel; only an explicit request moves keyboard focus into it. */
export function openAiPanel(options: { focusInput: boolean }): void {
  const panel = useAiPanelStore.getState();
  panel.setOpen(true);
  if (options.focusInput) panel.requestInputFocus();
}

function terminalHasFocus(): boolean {
  return document.activeElement?.classList.contains('xterm-helper-textarea') === true;
}

/** Closes the panel; keyboard focus that was in it (or nowhere) goes to the active pane. */
export function closeAiPanel(): void {
  const active = document.activeElement;
  const giveFocusBack = panelHasFocus() || active === null || active === document.body;
  useAiPanelStore.getState().setOpen(false);
  if (giveFocusBack) focusActivePane();
}

/**
 * The panel shortcut: closed → open with the input focused; open while typing in a
 * terminal → into the input; otherwise (focus in the panel, or from the palette) → close.
 */
export function toggleAiPanel(): void {
  const { open } = useAiPanelStore.getState();
  if (open && !terminalHasFocus()) closeAiPanel();
  else openAiPanel({ focusInput: true });
}

export function focusAiInput(): void {
  openAiPanel({ focusInput: true });
}

/** "Auto…" (the palette, the panel header): the input gets `!auto `, ready for the task. */
export function draftAutoTask(): void {
  const panel = useAiPanelStore.getState();
  if (!panel.draft.trimStart().startsWith('!auto')) panel.setDraft('!auto ');
  focusAiInput();
}

export function attachBlocks(blockIds: readonly string[], options: { focusInput: boolean }): void {
  useAiPanelStore.getState().attach(blockIds);
  openAiPanel(options);
}

/** "Summarize output": the panel opens (the keys stay where they are) and the summary arrives in it. */
export function summarizeInPanel(block: Block): void {
  openAiPanel({ focusInput: false });
  void summarizeBlock(block);
}

/** The block menu's "Ask AI": attach it, and for a failed command suggest the obvious question. */
export function askAiAboutBlock(block: Block): void {
  const panel = useAiPanelStore.getState();
  panel.attach([block.id]);
  if (panel.draft.trim() === '' && blockStatus(block) === 'failure') panel.setDraft('Why did this fail?');
  openAiPanel({ focusInput: true });
}
