import { isMac } from '../platform/platform';

/**
 * The keys of a pane whose shell has exited. Enter restarts it and Ctrl+D closes it (as in
 * Windows Terminal): a browser lets a page have both, while Ctrl+Shift+W (Cmd+W) closes the
 * browser's own window or tab, so only the desktop app names its close-pane chord too.
 */
export const DEAD_PANE_KEYS = { restart: 'Enter', close: 'Ctrl+D' } as const;

/** Every key that closes a dead pane here. */
export function deadPaneCloseKeys(): string {
  if (window.tandemElectron === undefined) return DEAD_PANE_KEYS.close;
  return `${DEAD_PANE_KEYS.close} or ${isMac ? 'Cmd+W' : 'Ctrl+Shift+W'}`;
}

/** The line written under the exited shell's last output. */
export function deadPaneLine(exitCode: number): string {
  const closeKeys = deadPaneCloseKeys();
  const restart = `press ${DEAD_PANE_KEYS.restart} to restart`;
  return `[process exited with code ${exitCode}] — ${restart}${closeKeys === DEAD_PANE_KEYS.close ? ' or' : ','} ${closeKeys} to close`;
}
