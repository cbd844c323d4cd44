import type { ScreenshotView } from '../../../shared/screenSteps';
import type { OcrWord } from '../../desktop/desktop';
import type { ScreenshotSpace } from '../../desktop/screenshotSpace';
import type { UiTarget } from './uiRequest';
import type { ScreenshotTarget } from './visionRequest';

/** The last look at one target: the space its points are in, the image (when one was sent) and the words read (when OCR ran). */
export interface LastLook {
  target: ScreenshotTarget;
  space: ScreenshotSpace;
  description: string;
  screenshot?: ScreenshotView;
  words?: OcrWord[];
}

/**
 * What the model last saw of each target in this conversation: a UI action's point is a pixel
 * of the last screenshot (or OCR, which has the same space) of its target, and its card marks
 * that point on that image.
 */
export class ScreenshotMemory {
  private readonly looks = new Map<string, LastLook>();
  private latestKey: string | undefined;

  remember(target: ScreenshotTarget, space: ScreenshotSpace, description: string, seen: { screenshot?: ScreenshotView; words?: OcrWord[] }): void {
    const key = targetKey(target);
    const before = this.looks.get(key);
    // An image and the words read from the same capture area belong together; a new area replaces both.
    const same = before !== undefined && sameSpace(before.space, space);
    // Re-inserted, so the map's order is the order of the looks.
    this.looks.delete(key);
    this.looks.set(key, {
      target,
      space,
      description,
      screenshot: seen.screenshot ?? (same ? before.screenshot : undefined),
      words: seen.words ?? (same ? before.words : undefined),
    });
    this.latestKey = key;
  }

  /**
   * The last look at `target`; at whatever was looked at last when no target is named; at the
   * last region when a region has no rectangle.
   */
  last(target?: UiTarget): LastLook | undefined {
    if (target?.kind === 'region' && !target.rect) return [...this.looks.values()].reverse().find((look) => look.target.kind === 'region');
    const key = target ? targetKey(target as ScreenshotTarget) : this.latestKey;
    return key === undefined ? undefined : this.looks.get(key);
  }

  clear(): void {
    this.looks.clear();
    this.latestKey = undefined;
  }
}

/** One key per thing looked at: the first screen and "the screen" are the same only when named the same way. */
export function targetKey(target: ScreenshotTarget): string {
  switch (target.kind) {
    case 'pane':
      return `pane:${target.paneId ?? 'active'}`;
    case 'window':
      return `window:${target.windowId.trim().toLowerCase()}`;
    case 'screen':
      return `screen:${target.screen ?? 'primary'}`;
    case 'region': {
      const { x, y, width, height } = target.rect;
      return `region:${x},${y},${width},${height}`;
    }
  }
}

export function sameSpace(a: ScreenshotSpace, b: ScreenshotSpace): boolean {
  return (
    a.surface === b.surface &&
    a.imageWidth === b.imageWidth &&
    a.imageHeight === b.imageHeight &&
    a.source.x === b.source.x &&
    a.source.y === b.source.y &&
    a.source.width === b.source.width &&
    a.source.height === b.source.height
  );
}
