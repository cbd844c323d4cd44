import type { Desktop, ScreenText } from '../../desktop/desktop';
import { intersectRects } from '../../desktop/geometry';
import { ScreenshotSpace } from '../../desktop/screenshotSpace';
import { wordsAsLines } from '../../desktop/ocr/tesseractTsv';

/**
 * The display of Anthropic's computer-use tool: the primary screen, scaled as every
 * screenshot is (1920×1080 is declared as 1280×720). Its points are pixels of this space.
 */
export async function computerDisplaySpace(desktop: Desktop): Promise<ScreenshotSpace> {
  const screens = await desktop.screens();
  const primary = screens.find((screen) => screen.primary) ?? screens[0];
  if (!primary) throw new Error('there is no screen');
  return ScreenshotSpace.forCapture(primary.rect);
}

/**
 * OCR of any target with its word boxes moved into the computer tool's display, the space its
 * clicks use. Words outside the display (on another screen) are left out; `outside` counts them.
 */
export function textOnDisplay(read: ScreenText, display: ScreenshotSpace): { read: ScreenText; outside: number } {
  let outside = 0;
  const words = read.words.flatMap((word) => {
    const onScreen = intersectRects(read.space.rectToScreen(word.box), display.source);
    if (!onScreen) {
      outside++;
      return [];
    }
    return [{ ...word, box: display.rectToImage(onScreen) }];
  });
  return { read: { ...read, words, text: wordsAsLines(words), space: display }, outside };
}
