import type { UiActionName } from '../../../shared/screenSteps';
import type { Point, Rect } from '../../desktop/geometry';
import type { ScreenshotTarget } from './visionRequest';

/**
 * A UI action the model asked for, as it named it: points are pixels of the last screenshot
 * of `target` (or, from the computer-use tool, of its display), converted to the screen when
 * the step is judged and again when it runs.
 */
export interface UiRequest {
  action: UiActionName;
  /** Absent: the target of the last screenshot (ui_action), or the computer tool's display. */
  target?: UiTarget;
  /** Which tool asked: the computer-use tool's points are in its declared display. */
  via: 'ui_action' | 'computer';
  at?: Point;
  /** A drag's end. */
  to?: Point;
  /** Wheel notches (positive: down / right). */
  scroll?: { down: number; right: number };
  /** What `type` types, `write_clipboard` writes, `notify` says. */
  text?: string;
  /** A key chord or sequence: "ctrl+s", "Return", "alt+F4". */
  keys?: string;
  /** For the window actions; `move_window` takes `at` in screen pixels, `resize_window` `width`/`height`. */
  windowId?: string;
  width?: number;
  height?: number;
  /** A notification's title. */
  title?: string;
  /** `wait`: how long. */
  seconds?: number;
}

/** A target as a UI action names it: a region without its rectangle is the last region looked at. */
export type UiTarget = Exclude<ScreenshotTarget, { kind: 'region' }> | { kind: 'region'; rect?: Rect };

/** Actions with a point on a screenshot. */
export const POINTER_ACTIONS: ReadonlySet<UiActionName> = new Set(['click', 'double_click', 'triple_click', 'right_click', 'middle_click', 'move', 'drag', 'scroll']);

/** Actions on a window named by its id. */
export const WINDOW_ACTIONS: ReadonlySet<UiActionName> = new Set(['focus_window', 'raise_window', 'move_window', 'resize_window', 'close_window']);

/** The step's line on its card (the action in words comes when it is judged, with the window it reaches). */
export function uiCommand(request: UiRequest): string {
  const point = (p: Point | undefined) => (p ? `${p.x},${p.y}` : '');
  switch (request.action) {
    case 'drag':
      return `${request.via} drag ${point(request.at)} → ${point(request.to)}`;
    case 'scroll':
      return `${request.via} scroll ${point(request.at)} ${scrollWords(request.scroll)}`;
    case 'type':
      return `${request.via} type ${JSON.stringify(clip(request.text ?? ''))}`;
    case 'key':
      return `${request.via} key ${request.keys ?? ''}`;
    case 'write_clipboard':
      return `${request.via} write_clipboard ${JSON.stringify(clip(request.text ?? ''))}`;
    case 'notify':
      return `${request.via} notify ${JSON.stringify(clip(request.title ?? ''))}`;
    case 'wait':
      return `${request.via} wait ${request.seconds ?? 1}s`;
    case 'move_window':
      return `${request.via} move_window ${request.windowId ?? ''} to ${point(request.at)}`;
    case 'resize_window':
      return `${request.via} resize_window ${request.windowId ?? ''} to ${request.width ?? '?'}×${request.height ?? '?'}`;
    default:
      if (WINDOW_ACTIONS.has(request.action)) return `${request.via} ${request.action} ${request.windowId ?? ''}`;
      return `${request.via} ${request.action}${request.at ? ` ${point(request.at)}` : ''}`;
  }
}

export function scrollWords(scroll: UiRequest['scroll']): string {
  const parts: string[] = [];
  if (scroll?.down) parts.push(`${Math.abs(scroll.down)} ${scroll.down > 0 ? 'down' : 'up'}`);
  if (scroll?.right) parts.push(`${Math.abs(scroll.right)} ${scroll.right > 0 ? 'right' : 'left'}`);
  return parts.join(', ') || 'not at all';
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
