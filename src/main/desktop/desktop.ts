import type { Point, Rect } from './geometry';
import type { ScreenshotSpace, Surface } from './screenshotSpace';

/**
 * The desktop capability: see the screen, list windows, read text on screen, and act on the
 * UI. Everything here is in real screen pixels; the model's coordinates (the pixels of the
 * screenshot it saw) go through the screenshot's `space` (ScreenshotSpace) first.
 */
export interface Desktop {
  /** Whether this system can do any of it; when not, `reason` says why, for the user and the model. */
  availability(): Promise<DesktopAvailability>;
  /**
   * The reads take a `signal`: aborting it ends the request at once, its tools killed (OCR of
   * a full screen takes 15–36 s), and it rejects with a DesktopError `interrupted`.
   */
  screenshot(target: CaptureTarget, signal?: AbortSignal): Promise<Screenshot>;
  listWindows(signal?: AbortSignal): Promise<WindowInfo[]>;
  /** The screens (monitors), in real screen pixels. */
  screens(): Promise<ScreenInfo[]>;
  /** OCR of the target: words with boxes in the same image space a screenshot of the target has. */
  readText(target: CaptureTarget, signal?: AbortSignal): Promise<ScreenText>;
  /**
   * `surface`: where the action's points live, the `space.surface` of the screenshot they come
   * from. Aborting `signal` stops it (typing stops mid-text); part of it may have happened.
   */
  act(action: UiAction, surface?: Surface, signal?: AbortSignal): Promise<void>;
  readClipboard(): Promise<string>;
  writeClipboard(text: string): Promise<void>;
  notify(notification: DesktopNotification): Promise<void>;
}

/**
 * `screenInput`: clicks and keys can reach any point of the screen (X11), not only Tandem's
 * own window (Electron alone): the computer-use tool is offered only then. `lacking`: parts
 * that do not work here although the rest does, each with why (a tool not installed); the
 * agent offers no tool that needs them.
 */
export type DesktopAvailability = { available: true; implementation: string; screenInput: boolean; lacking?: DesktopLacking } | { available: false; reason: string };

/** `input`: clicks, keys and window actions (xdotool); `ocr`: reading text (Tesseract). */
export type DesktopLacking = Partial<Record<'input' | 'ocr', string>>;

/**
 * What to capture. `region` is in real screen pixels; `tandem` is Tandem's own window, or an
 * area of it in the window's own coordinates; `pane` is the area of Tandem's window where that
 * pane is drawn. Only the Electron implementation captures Tandem's window and its panes.
 */
export type CaptureTarget =
  | { kind: 'screen'; screen?: number }
  | { kind: 'window'; windowId: string }
  | { kind: 'region'; rect: Rect }
  | { kind: 'tandem'; rect?: Rect }
  | { kind: 'pane'; paneId: number };

export interface Screenshot {
  /** PNG, long side at most MAX_IMAGE_LONG_SIDE. */
  png: Buffer;
  /** Maps points of this image to the screen and back; its size is the PNG's size. */
  space: ScreenshotSpace;
  /** What was captured, in words ("window 'Installer' (0x2a00007)"). */
  description: string;
  /** How many windows the privacy list blacked out; never which (nothing of them reaches the model). */
  blackedOut: number;
}

export interface WindowInfo {
  id: string;
  title: string;
  /** WM_CLASS class (e.g. "XTerm"), the application's name as the window system knows it. */
  application: string;
  /** WM_CLASS instance (e.g. "xterm"). */
  instance: string;
  pid?: number;
  /** The window's content area in screen pixels. */
  geometry: Rect;
  /** The area it covers on screen, with the window manager's frame (equal to geometry without one). */
  frame: Rect;
  focused: boolean;
  /** False when mapped but not viewable (minimized). */
  visible: boolean;
  /** Index of the screen (monitor) holding the window's centre. */
  screen: number;
  /** Matched by the privacy list: never captured or acted on. */
  excluded: boolean;
}

export interface ScreenInfo {
  index: number;
  name: string;
  rect: Rect;
  primary: boolean;
}

export interface ScreenText {
  /** Every word read, in reading order, in the image space of `space`. */
  words: OcrWord[];
  /** The words joined into lines. */
  text: string;
  space: ScreenshotSpace;
  description: string;
}

export interface OcrWord {
  text: string;
  /** Box in the pixels of the screenshot space (what the model clicks in). */
  box: Rect;
  /** Tesseract's confidence, 0–100. */
  confidence: number;
  line: number;
}

export type MouseButton = 'left' | 'middle' | 'right';

/** A UI action; points are real screen pixels (ScreenshotSpace.toScreen of the model's point). */
export type UiAction =
  | { kind: 'move'; at: Point }
  | { kind: 'click'; at: Point; button: MouseButton; count: 1 | 2 | 3 }
  | { kind: 'drag'; from: Point; to: Point; button: MouseButton }
  | { kind: 'scroll'; at: Point; down: number; right: number }
  | { kind: 'type'; text: string }
  | { kind: 'key'; keys: string }
  | { kind: 'focus_window'; windowId: string }
  | { kind: 'raise_window'; windowId: string }
  | { kind: 'move_window'; windowId: string; to: Point }
  | { kind: 'resize_window'; windowId: string; width: number; height: number }
  | { kind: 'close_window'; windowId: string };

export interface DesktopNotification {
  title: string;
  body: string;
}
