import { z } from 'zod';
import { DesktopError } from '../desktopError';
import type { Rect } from '../geometry';
import type { ElectronWindow } from './electronSurface';
import { pageAnswer } from './pageAnswer';

/**
 * The JavaScript world the query runs in: neither the page's (0) nor the preload's (999,
 * Electron's contextIsolation world), so the page's scripts cannot change the builtins it
 * uses, and it sees nothing of the preload's API.
 */
const PANE_QUERY_WORLD_ID = 1716;

const PageRect = z.object({ x: z.number().finite(), y: z.number().finite(), width: z.number().finite().nonnegative(), height: z.number().finite().nonnegative() });

/**
 * Where pane `paneId` is drawn in Tandem's window, in the window's DIPs (what capturePage and
 * sendInputEvent take). Only the renderer knows its layout, so this asks the page's DOM for
 * the bounding box of the pane's element (`data-pane-id`, see PaneView) in an isolated world.
 * Chosen over an IPC query: nothing is added to the preload or the protocol, the sandboxed
 * renderer gets no new power and needs no code for it. What the page answers is validated
 * like any input from the renderer; a page that does not answer (reloading) is given up on.
 */
export async function paneRect(window: ElectronWindow, paneId: number, limitMs: number): Promise<Rect> {
  const asked = window.webContents.executeJavaScriptInIsolatedWorld(PANE_QUERY_WORLD_ID, [{ code: paneQuery(paneId) }]);
  const answer = await pageAnswer(asked, limitMs, `The place of pane ${paneId} in Tandem's window`);
  if (answer === null) throw new DesktopError('not_found', `pane ${paneId} is not in Tandem's window`);
  const box = PageRect.safeParse(answer);
  if (!box.success) throw new DesktopError('failed', `Tandem's window gave no usable place for pane ${paneId}`);
  if (box.data.width < 1 || box.data.height < 1) {
    throw new DesktopError('not_found', `pane ${paneId} is not shown in Tandem's window now (its tab is not the active one)`);
  }
  const zoom = window.webContents.getZoomFactor();
  const left = Math.floor(box.data.x * zoom);
  const top = Math.floor(box.data.y * zoom);
  return { x: left, y: top, width: Math.ceil((box.data.x + box.data.width) * zoom) - left, height: Math.ceil((box.data.y + box.data.height) * zoom) - top };
}

/** The page-side query: the pane element's box in CSS pixels of the viewport, or null. */
export function paneQuery(paneId: number): string {
  if (!Number.isSafeInteger(paneId) || paneId < 0) throw new DesktopError('invalid', `${paneId} is not a pane id`);
  return `(() => {
  const pane = document.querySelector('[data-testid="pane"][data-pane-id="${paneId}"]');
  if (!pane) return null;
  const box = pane.getBoundingClientRect();
  return { x: box.left, y: box.top, width: box.width, height: box.height };
})()`;
}
