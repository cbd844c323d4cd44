import type { CaptureTarget } from './desktop';

/** The id Tandem's own window has in window lists and targets. */
export const TANDEM_WINDOW_ID = 'tandem';

/** Why Tandem's own window and its panes cannot be captured without Electron. */
export const OWN_WINDOW_NEEDS_ELECTRON =
  "Tandem's own window and its panes are captured through Electron, in the desktop app; a page in a browser (browser mode) cannot capture itself";

/** Tandem's own window or a pane of it: only the Electron implementation captures these. */
export function isOwnWindow(target: CaptureTarget): boolean {
  return target.kind === 'tandem' || target.kind === 'pane' || (target.kind === 'window' && target.windowId === TANDEM_WINDOW_ID);
}
