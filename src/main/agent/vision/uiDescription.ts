import type { WindowInfo } from '../../desktop/desktop';
import type { Point } from '../../desktop/geometry';
import { scrollWords, type UiRequest } from './uiRequest';

interface Context {
  /** The window the action reaches (under the point, focused, named). */
  window?: WindowInfo;
  dropWindow?: WindowInfo;
  /** The word OCR read under the point. */
  label?: string;
  /** The target whose screenshot the point is in. */
  target?: string;
}

/** A UI action in words, for its card, hooks and the audit log: "click at 412,300 on 'Retry' in window 'Installer' (XMessage)". */
export function uiDescription(request: UiRequest, context: Context): string {
  const { window, label } = context;
  const at = (point: Point | undefined) => (point ? `${point.x},${point.y}` : '?');
  const on = label ? ` on '${label}'` : '';
  const inWindow = window ? ` in ${windowWords(window)}` : context.target ? ` in the screenshot of ${context.target}` : '';
  const text = (value: string | undefined) => JSON.stringify(value ?? '');
  switch (request.action) {
    case 'click':
      return `click at ${at(request.at)}${on}${inWindow}`;
    case 'double_click':
      return `double-click at ${at(request.at)}${on}${inWindow}`;
    case 'triple_click':
      return `triple-click at ${at(request.at)}${on}${inWindow}`;
    case 'right_click':
      return `right-click at ${at(request.at)}${on}${inWindow}`;
    case 'middle_click':
      return `middle-click (pastes the selection) at ${at(request.at)}${on}${inWindow}`;
    case 'move':
      return `move the pointer to ${at(request.at)}${on}${inWindow}`;
    case 'drag': {
      const drop = context.dropWindow && context.dropWindow.id !== window?.id ? ` onto ${windowWords(context.dropWindow)}` : '';
      return `drag from ${at(request.at)}${on} to ${at(request.to)}${inWindow}${drop}`;
    }
    case 'scroll':
      return `scroll ${scrollWords(request.scroll)} at ${at(request.at)}${on}${inWindow}`;
    case 'type':
      return `type ${text(request.text)} into ${window ? windowWords(window) : 'the focused window'}`;
    case 'key':
      return `press ${request.keys ?? ''} in ${window ? windowWords(window) : 'the focused window'}`;
    case 'focus_window':
      return `focus ${window ? windowWords(window) : `window ${request.windowId}`}`;
    case 'raise_window':
      return `raise ${window ? windowWords(window) : `window ${request.windowId}`}`;
    case 'move_window':
      return `move ${window ? windowWords(window) : `window ${request.windowId}`} to ${at(request.at)} (screen pixels)`;
    case 'resize_window':
      return `resize ${window ? windowWords(window) : `window ${request.windowId}`} to ${request.width ?? '?'}×${request.height ?? '?'}`;
    case 'close_window':
      return `close ${window ? windowWords(window) : `window ${request.windowId}`}`;
    case 'read_clipboard':
      return 'read the clipboard (its text goes to the model, secrets redacted)';
    case 'write_clipboard':
      return `put ${text(request.text)} on the clipboard`;
    case 'notify':
      return `show the desktop notification ${text(request.title)}${request.text ? `: ${text(request.text)}` : ''}`;
    case 'wait':
      return `wait ${request.seconds ?? 1} s`;
    case 'cursor_position':
      return 'ask where the pointer is';
  }
}

/** A window in words; one on the privacy list is named by nothing of its own (no title, class or id). */
export function windowWords(window: WindowInfo): string {
  if (window.excluded) return 'a window on the privacy list';
  const app = window.application && window.application !== window.title ? ` (${window.application})` : '';
  return `window '${window.title || window.id}'${app}`;
}
