/**
 * Whether closing a pane, a tab or the window asks first, and what it says. The renderer
 * asks for panes and tabs, the desktop app's main process for the window; both decide here.
 */

/** `[terminal] confirm_close`: ask when programs run in what closes, always, or never. */
export const CONFIRM_CLOSE_CHOICES = ['running', 'always', 'never'] as const;
export type ConfirmClose = (typeof CONFIRM_CLOSE_CHOICES)[number];

/** What closing one pane would end (the engine's answer to `pane.running`). */
export interface PaneRunning {
  paneId: number;
  /** Its shell still runs (an exited pane ends nothing). */
  alive: boolean;
  /** The programs running in its foreground, by name ("vim", "python3"), or a command line the shell itself runs. */
  programs: string[];
}

export type CloseScope = 'pane' | 'tab' | 'window';

export interface CloseQuestion {
  title: string;
  message: string;
  /** The button that closes; the other one, Cancel, is the default. */
  confirmLabel: string;
  programs: string[];
}

const TITLES: Record<CloseScope, string> = { pane: 'Close this pane?', tab: 'Close this tab?', window: 'Quit Tandem?' };
const CONFIRM_LABELS: Record<CloseScope, string> = { pane: 'Close Pane', tab: 'Close Tab', window: 'Quit Tandem' };
const PLACES: Record<CloseScope, string> = { pane: 'in this pane', tab: 'in this tab', window: 'in Tandem' };
const IDLE_MESSAGES: Record<CloseScope, string> = {
  pane: 'Closing it ends its shell.',
  tab: 'Closing it ends the shells of its panes.',
  window: 'Quitting ends the shells of all its panes.',
};

/** The question to ask before closing these panes, or undefined to close at once. */
export function closeQuestion(mode: ConfirmClose, scope: CloseScope, panes: readonly PaneRunning[]): CloseQuestion | undefined {
  if (mode === 'never') return undefined;
  const programs = [...new Set(panes.flatMap((pane) => pane.programs))];
  const base = { title: TITLES[scope], confirmLabel: CONFIRM_LABELS[scope], programs };
  if (programs.length > 0) {
    const verb = programs.length === 1 ? 'is' : 'are';
    const ends = scope === 'window' ? 'Quitting ends' : 'Closing ends';
    return { ...base, message: `${programs.join(', ')} ${verb} running ${PLACES[scope]}. ${ends} ${programs.length === 1 ? 'it' : 'them'}.` };
  }
  if (mode === 'always' && panes.some((pane) => pane.alive)) return { ...base, message: IDLE_MESSAGES[scope] };
  return undefined;
}
