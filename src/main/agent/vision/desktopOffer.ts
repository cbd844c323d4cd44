import type { Desktop } from '../../desktop/desktop';
import type { BackendKind } from '../modelConnection';
import { supportsComputerUse } from '../modelCatalog';
import { computerDisplaySpace } from './computerDisplay';

/**
 * What the desktop can do for the tools offered with one request: none of the screen tools
 * where there is no display, no `ui_action` without input (xdotool), no `read_screen_text`
 * without OCR (Tesseract); Anthropic's computer tool (`computerDisplay`, its size) instead of
 * `screenshot` and `ui_action` where the model can use it and clicks reach the whole screen.
 */
export interface DesktopOffer {
  /** Screenshots and the window list. */
  looks: boolean;
  ocr: boolean;
  input: boolean;
  computerDisplay?: { width: number; height: number };
}

export const NO_DESKTOP: DesktopOffer = { looks: false, ocr: false, input: false };

export interface OfferConnection {
  backend: BackendKind;
  model: string;
  computerUse: 'auto' | 'off';
}

/** `computerTool`: whether the registry has the computer tool at all. */
export async function desktopOffer(desktop: Desktop | undefined, connection: OfferConnection, computerTool: boolean): Promise<DesktopOffer> {
  const availability = desktop ? await desktop.availability() : undefined;
  if (!desktop || !availability?.available) return NO_DESKTOP;
  const offer: DesktopOffer = { looks: true, ocr: !availability.lacking?.ocr, input: !availability.lacking?.input };
  const wantsComputer = computerTool && connection.computerUse !== 'off' && connection.backend === 'anthropic' && supportsComputerUse(connection.model);
  // Its clicks go anywhere on the screen: not offered where input reaches only Tandem's own window.
  if (!wantsComputer || !offer.input || !availability.screenInput) return offer;
  const display = await computerDisplaySpace(desktop).catch(() => undefined);
  return display ? { ...offer, computerDisplay: { width: display.imageWidth, height: display.imageHeight } } : offer;
}
