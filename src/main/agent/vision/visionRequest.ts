import type { Rect } from '../../desktop/geometry';
import { listenCommand, listenShape, type ListenRequest } from '../hearing/listenRequest';

/**
 * What the model asked to look at: a screenshot of a target, the text on it (OCR), or the list
 * of windows; or to hear (`listen`: the agent's ears are a look step too, judged by
 * `[approval.audio]`).
 */
export type VisionRequest = { look: 'screenshot' | 'screen-text'; target: ScreenshotTarget } | { look: 'windows' } | { look: 'listen'; listen: ListenRequest };

/** A screenshot's target as the model names it; `region` is in real screen pixels. */
export type ScreenshotTarget =
  | { kind: 'pane'; paneId?: number }
  | { kind: 'window'; windowId: string }
  | { kind: 'screen'; screen?: number }
  | { kind: 'region'; rect: Rect };

/**
 * The kind of look approval is asked for once per conversation (and granted for the session):
 * a screenshot of a target and the text read off it show the same thing, so they are one kind.
 */
export function lookKind(request: VisionRequest): string {
  if (request.look === 'listen') return listenShape(request.listen);
  return request.look === 'windows' ? 'the window list' : `looks at a ${request.target.kind}`;
}

/** The step's line on its card and in the audit trail. */
export function lookCommand(request: VisionRequest): string {
  if (request.look === 'windows') return 'list_windows';
  if (request.look === 'listen') return listenCommand(request.listen, undefined);
  const { target } = request;
  const tool = request.look === 'screenshot' ? 'screenshot' : 'read_screen_text';
  switch (target.kind) {
    case 'pane':
      return `${tool} pane${target.paneId !== undefined ? ` ${target.paneId}` : ''}`;
    case 'window':
      return `${tool} window ${target.windowId}`;
    case 'screen':
      return `${tool} screen${target.screen !== undefined ? ` ${target.screen}` : ''}`;
    case 'region': {
      const { x, y, width, height } = target.rect;
      return `${tool} region ${width}×${height} at ${x},${y}`;
    }
  }
}

/** A target in words: "window 0x2a00007", "the screen", "region 400×300 at 10,20". */
export function describeTarget(target: ScreenshotTarget): string {
  switch (target.kind) {
    case 'pane':
      return target.paneId !== undefined ? `pane ${target.paneId}` : 'the active pane';
    case 'window':
      return `window ${target.windowId}`;
    case 'screen':
      return target.screen !== undefined ? `screen ${target.screen}` : 'the screen';
    case 'region': {
      const { x, y, width, height } = target.rect;
      return `region ${width}×${height} at ${x},${y}`;
    }
  }
}
