/** What the panel shows of the agent's steps on the screen: the images it looked at, the UI actions it takes. */

export interface ScreenshotView {
  /** The image, exactly as sent, is fetched with `agent.image` (views go out often; images stay in the engine). */
  id: string;
  width: number;
  height: number;
  /** What was captured and at what scale, as the model was told. */
  description: string;
}

/** The generic names of UI actions (the computer-use tool's actions are shown in these too). */
export type UiActionName =
  | 'click'
  | 'double_click'
  | 'triple_click'
  | 'right_click'
  | 'middle_click'
  | 'move'
  | 'drag'
  | 'scroll'
  | 'type'
  | 'key'
  | 'focus_window'
  | 'raise_window'
  | 'move_window'
  | 'resize_window'
  | 'close_window'
  | 'read_clipboard'
  | 'write_clipboard'
  | 'notify'
  | 'wait'
  | 'cursor_position';

export interface UiStepView {
  action: UiActionName;
  /** What will happen, in words: "click at 412,300 on 'Retry' in window 'Installer' (XMessage)". */
  description: string;
  /** The window the action goes to (under the point, focused, or named), when there is one. */
  window?: { id: string; title: string; application: string };
  /**
   * Where it lands on the last screenshot of its target (the image the model saw, by its
   * ScreenshotView id): the card shows a crop of it around `at` (and `to`, for a drag), marked.
   */
  target?: {
    screenshotId: string;
    width: number;
    height: number;
    at: { x: number; y: number };
    to?: { x: number; y: number };
    /** The frame of the window it reaches, in the screenshot's pixels (clipped to it): outlined on the crop. */
    frame?: { x: number; y: number; width: number; height: number };
  };
}
