import type { CaptureTarget, Desktop, DesktopAvailability, DesktopNotification, ScreenInfo, Screenshot, ScreenText, UiAction, WindowInfo } from '../desktop';
import { DesktopError } from '../desktopError';
import { interrupted } from '../toolProcess';
import { describeRect, intersectRects, type Point, type Rect } from '../geometry';
import { isInstalled, missingOcr } from '../installedPrograms';
import { readWindowsText } from '../ocr/windowsText';
import { wordsAsLines } from '../ocr/tesseractTsv';
import { OWN_WINDOW_NEEDS_ELECTRON } from '../ownWindow';
import type { WindowExclusion } from '../privacy/windowExclusion';
import { areaDownscale } from '../raster/areaDownscale';
import { encodePng } from '../raster/pngEncoding';
import { cropRows } from '../raster/pixelRows';
import { cropImage, type RgbaImage } from '../raster/rgbaImage';
import { decodeXwd, xwdPixelRows } from '../raster/xwdDecoding';
import { ScreenshotSpace, type Surface } from '../screenshotSpace';
import { blackOutWindows } from '../screenshotImage';
import { pointerArguments } from './xdotoolCommands';
import { findWindow, readScreens, readWindows, windowAt, windowListTools, windowsFrom, type WindowSnapshot } from './x11Windows';
import { X11Tools } from './x11Tools';

const CAPTURE_TIMEOUT_MS = 15_000;
const NO_XDOTOOL = 'clicks, keys and window actions need xdotool: install the xdotool package';
const NOTIFICATION_TIMEOUT_MS = 5_000;
const AVAILABILITY_KEPT_MS = 5_000;

interface Framed {
  /** The capture of `area`, full size or scaled to `space`. */
  image: RgbaImage;
  area: Rect;
  space: ScreenshotSpace;
  description: string;
}

interface Capture extends Framed {
  windows: WindowInfo[];
  blackedOut: number;
}

/**
 * The desktop of an X display (Linux with DISPLAY, including XWayland sessions), through the
 * distribution's tools: xwd for pixels, xwininfo/xprop/xrandr for windows and screens,
 * xdotool (XTEST) for input and window actions, xclip for the clipboard, notify-send for
 * notifications, tesseract for OCR. Every capture blacks out excluded windows; every action
 * on an excluded window is refused.
 */
export class X11Desktop implements Desktop {
  private readonly tools: X11Tools;
  private checked: { at: number; answer: Promise<DesktopAvailability> } | undefined;

  /** `path`: where its tools are found (the engine's PATH; absent: this process's). */
  constructor(
    display: string,
    private readonly exclusion: WindowExclusion,
    private readonly path?: string,
  ) {
    this.tools = new X11Tools(display, path);
  }

  /**
   * Asked before every model request (which tools to offer): the answer is kept for a few
   * seconds, so a run of tool calls does not start a process each time.
   */
  async availability(): Promise<DesktopAvailability> {
    const now = Date.now();
    if (this.checked && now - this.checked.at < AVAILABILITY_KEPT_MS) return this.checked.answer;
    const answer = this.checkAvailability();
    this.checked = { at: now, answer };
    return answer;
  }

  private async checkAvailability(): Promise<DesktopAvailability> {
    try {
      await this.tools.text('xwininfo', ['-root']);
    } catch (error) {
      const missing = error instanceof DesktopError && error.code === 'unavailable';
      return {
        available: false,
        reason: missing
          ? 'the X11 tools are not installed (x11-utils, x11-apps, xdotool, xclip)'
          : `cannot open the X display ${this.tools.display}: ${(error as Error).message}`,
      };
    }
    const missing = ['xwd', 'xprop'].find((tool) => !isInstalled(tool, this.path));
    if (missing) return { available: false, reason: `${missing} is not installed (packages: x11-apps, x11-utils)` };
    const input = isInstalled('xdotool', this.path) ? undefined : NO_XDOTOOL;
    const ocr = missingOcr(this.path);
    const lacking = { ...(input ? { input } : {}), ...(ocr ? { ocr } : {}) };
    return { available: true, implementation: `X11 (${this.tools.display})`, screenInput: !input, ...(input || ocr ? { lacking } : {}) };
  }

  async listWindows(signal?: AbortSignal): Promise<WindowInfo[]> {
    return (await readWindows(this.tools.until(signal), this.exclusion)).windows;
  }

  async screens(): Promise<ScreenInfo[]> {
    return readScreens(this.tools);
  }

  async screenshot(target: CaptureTarget, signal?: AbortSignal): Promise<Screenshot> {
    const capture = await this.capture(target, signal, { scaled: true });
    return {
      png: encodePng(capture.image),
      space: capture.space,
      description: capture.description,
      blackedOut: capture.blackedOut,
    };
  }

  async readText(target: CaptureTarget, signal?: AbortSignal): Promise<ScreenText> {
    const capture = await this.capture(target, signal, { scaled: false });
    const words = await readWindowsText(capture.image, capture.area, capture.space, target.kind === 'window' ? [] : capture.windows, signal, this.path);
    return { words, text: wordsAsLines(words), space: capture.space, description: capture.description };
  }

  async act(action: UiAction, surface: Surface = 'desktop', signal?: AbortSignal): Promise<void> {
    if (surface !== 'desktop') throw new DesktopError('unavailable', "input into Tandem's own window goes through Electron");
    const tools = this.tools.until(signal);
    const snapshot = await readWindows(tools, this.exclusion, { focus: action.kind === 'type' || action.kind === 'key' });
    switch (action.kind) {
      case 'move':
      case 'click':
      case 'scroll':
        refuseExcludedAt(snapshot, action.at);
        return xdotool(tools, pointerArguments(action));
      case 'drag':
        refuseExcludedAt(snapshot, action.from);
        refuseExcludedAt(snapshot, action.to);
        return xdotool(tools, pointerArguments(action));
      case 'type':
      case 'key': {
        const focused = snapshot.windows.find((window) => window.focused);
        if (focused?.excluded) throw excludedError();
        // Text is typed by runs that an abort never cuts short (typeInPieces), a key at once.
        return action.kind === 'type' ? typeInPieces(this.tools, pointerArguments(action), action.text, signal) : xdotool(tools, pointerArguments(action));
      }
      default:
        return this.actOnWindow(tools, snapshot, action);
    }
  }

  async readClipboard(): Promise<string> {
    try {
      return await this.tools.text('xclip', ['-selection', 'clipboard', '-o']);
    } catch (error) {
      // xclip fails when nothing owns the clipboard or it holds no text: an empty clipboard.
      if (error instanceof DesktopError && error.code === 'failed' && /not available|no owner|target/i.test(error.message)) return '';
      throw error;
    }
  }

  async writeClipboard(text: string): Promise<void> {
    await this.tools.buffer('xclip', ['-selection', 'clipboard', '-i'], { input: text, detachesChild: true });
  }

  async notify(notification: DesktopNotification): Promise<void> {
    await this.tools.buffer('notify-send', ['--app-name=Tandem', '--', notification.title, notification.body], {
      timeoutMs: NOTIFICATION_TIMEOUT_MS,
    });
  }

  private async actOnWindow(tools: X11Tools, snapshot: WindowSnapshot, action: UiAction & { windowId: string }): Promise<void> {
    const window = findWindow(snapshot, action.windowId);
    if (window.excluded) throw excludedError();
    const id = window.id;
    switch (action.kind) {
      case 'focus_window':
        return xdotool(tools, snapshot.ewmh ? ['windowactivate', '--sync', id] : ['windowraise', id, 'windowfocus', '--sync', id]);
      case 'raise_window':
        return xdotool(tools, ['windowraise', id]);
      case 'move_window':
        return xdotool(tools, ['windowmove', '--sync', id, String(Math.round(action.to.x)), String(Math.round(action.to.y))]);
      case 'resize_window':
        return xdotool(tools, ['windowsize', '--sync', id, String(Math.round(action.width)), String(Math.round(action.height))]);
      case 'close_window':
        // EWMH asks the application to close (it may ask to save); without a window manager
        // the application's connection is closed, as xkill does.
        if (snapshot.ewmh) await tools.buffer('wmctrl', ['-i', '-c', id]);
        else await xdotool(tools, ['windowkill', id]);
        return;
      default:
        throw new DesktopError('invalid', `unknown window action ${(action as UiAction).kind}`);
    }
  }

  /**
   * The pixels of a target, full size or (`scaled`) at its screenshot space's size, with
   * excluded windows blacked out. The window list is read while the screen is captured and
   * once more after it, and every excluded window of either list is blacked out, so a
   * password manager that opens or moves meanwhile is not shown. The area of a screen or a
   * region does not depend on the windows: it is cropped and scaled while the second list is
   * read (a window's frame comes from that list).
   */
  private async capture(target: CaptureTarget, signal: AbortSignal | undefined, { scaled }: { scaled: boolean }): Promise<Capture> {
    if (target.kind === 'tandem' || target.kind === 'pane') {
      throw new DesktopError('unavailable', `${OWN_WINDOW_NEEDS_ELECTRON} (capture the browser's window by id or the screen instead)`);
    }
    const tools = this.tools.until(signal);
    // xwd and the first window list in one batch: each process the engine starts costs it milliseconds.
    const detail = { screens: target.kind === 'screen' };
    const [captured, ...listed] = await tools.batch([{ command: 'xwd', args: ['-root', '-silent'] }, ...windowListTools(detail)], { timeoutMs: CAPTURE_TIMEOUT_MS });
    if (captured instanceof DesktopError) throw captured;
    const reading = readWindows(tools, this.exclusion, {});
    reading.catch(() => undefined); // awaited below, unless the pixels or the first list fail first
    const root = rootPixels(captured!, scaled);
    const before = await windowsFrom(listed, tools, this.exclusion, detail);
    const early = target.kind === 'window' ? undefined : framed(root, target, before);
    const after = await reading;
    const capture = early ?? framed(root, target, after);
    const blackedOut = blackOutWindows(capture.image, capture.area, [...before.windows, ...after.windows]);
    return { ...capture, windows: after.windows, blackedOut };
  }
}

interface RootPixels {
  width: number;
  height: number;
  /** The pixels of `area`, at the size of `space` or full size. */
  cut(area: Rect, space: ScreenshotSpace): RgbaImage;
}

/**
 * The root window's pixels in the dump: scaled straight from the dump's rows (a screenshot
 * needs no full-size image), or decoded at full size (OCR).
 */
function rootPixels(dump: Uint8Array, scaled: boolean): RootPixels {
  if (scaled) {
    const rows = xwdPixelRows(dump);
    return { width: rows.width, height: rows.height, cut: (area, space) => areaDownscale(cropRows(rows, area), space.imageWidth, space.imageHeight) };
  }
  const image = decodeXwd(dump);
  return { width: image.width, height: image.height, cut: (area) => cropImage(image, area) };
}

/** The part of the root a target shows. */
function framed(root: RootPixels, target: Exclude<CaptureTarget, { kind: 'tandem' | 'pane' }>, snapshot: WindowSnapshot): Framed {
  const { rect, description } = resolveArea(target, snapshot);
  const area = intersectRects(rect, { x: 0, y: 0, width: root.width, height: root.height });
  if (!area) throw new DesktopError('outside', `the ${description} is not on the screen (${describeRect(rect)})`);
  const space = ScreenshotSpace.forCapture(area);
  return { image: root.cut(area, space), area, space, description };
}

function resolveArea(target: Exclude<CaptureTarget, { kind: 'tandem' | 'pane' }>, snapshot: WindowSnapshot): { rect: Rect; description: string } {
  switch (target.kind) {
    case 'screen': {
      const screen =
        target.screen === undefined
          ? (snapshot.screens.find((candidate) => candidate.primary) ?? snapshot.screens[0])
          : snapshot.screens.find((candidate) => candidate.index === target.screen);
      if (!screen) throw new DesktopError('not_found', `no screen ${target.screen} (screens: ${snapshot.screens.map((s) => s.index).join(', ')})`);
      return { rect: screen.rect, description: `screen ${screen.index} (${screen.name})` };
    }
    case 'window': {
      const window = findWindow(snapshot, target.windowId);
      if (window.excluded) throw excludedError();
      if (!window.visible) throw new DesktopError('invalid', `window '${window.title}' (${window.id}) is minimized or hidden: focus it first`);
      return { rect: window.frame, description: `window '${window.title}' (${window.application || 'unknown application'}, ${window.id})` };
    }
    case 'region': {
      const { rect } = target;
      if (!(rect.width >= 1 && rect.height >= 1)) throw new DesktopError('invalid', `a region needs a positive width and height (${describeRect(rect)})`);
      return { rect, description: `region ${describeRect(rect)}` };
    }
  }
}

function refuseExcludedAt(snapshot: WindowSnapshot, point: Point): void {
  const window = windowAt(snapshot, point);
  if (window?.excluded) throw excludedError();
}

/** Names nothing of the window: its title, class or id would tell the model what the list hides. */
function excludedError(): DesktopError {
  return new DesktopError('excluded', 'that window is on the privacy list ([approval.vision] exclude): it is never captured or acted on');
}

/** Characters typed per xdotool run: an abort takes effect between runs, within about a quarter of a second (8 ms a character). */
const TYPE_PIECE_CHARACTERS = 32;

/**
 * Types `text` in runs of TYPE_PIECE_CHARACTERS characters, looking at `signal` between them:
 * xdotool is never killed mid-text. Killed between a key's press and its release, it left that
 * key held down on the X server, repeating into whatever window had the focus.
 */
async function typeInPieces(tools: X11Tools, args: string[], text: string, signal: AbortSignal | undefined): Promise<void> {
  const characters = Array.from(text);
  for (let at = 0; at < characters.length; at += TYPE_PIECE_CHARACTERS) {
    if (signal?.aborted) throw interrupted('xdotool');
    await xdotool(tools, args, characters.slice(at, at + TYPE_PIECE_CHARACTERS).join(''));
  }
}

async function xdotool(tools: X11Tools, args: string[], input?: string): Promise<void> {
  await tools.buffer('xdotool', args, input === undefined ? {} : { input, timeoutMs: 10_000 + input.length * 20 });
}
