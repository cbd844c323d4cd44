import type { CaptureTarget, Desktop, DesktopAvailability, DesktopNotification, ScreenInfo, Screenshot, ScreenText, UiAction, WindowInfo } from '../desktop';
import { DesktopError, stopIfAborted } from '../desktopError';
import { describeRect, intersectRects, rectContains, type Rect } from '../geometry';
import { missingOcr } from '../installedPrograms';
import { recognizeText } from '../ocr/tesseractOcr';
import { wordsAsLines } from '../ocr/tesseractTsv';
import { isOwnWindow, TANDEM_WINDOW_ID } from '../ownWindow';
import type { WindowExclusion } from '../privacy/windowExclusion';
import type { RgbaImage } from '../raster/rgbaImage';
import { ScreenshotSpace, type Surface } from '../screenshotSpace';
import { inputEvents } from './electronInput';
import type { ElectronSurface, ElectronWindow, NativeImageLike } from './electronSurface';
import { PAGE_ANSWER_LIMIT_MS, pageAnswer } from './pageAnswer';
import { paneRect } from './paneLocation';

/**
 * The desktop as Electron sees it: Tandem's own window and its panes (capturePage,
 * sendInputEvent) on every platform, screens through desktopCapturer (read-only: Electron
 * cannot send input to other applications), the clipboard and notifications. desktopCapturer
 * gives no window geometry, so excluded windows cannot be blacked out: a screen capture is
 * refused while one is open. The window is looked up on every request, so a closed and
 * reopened window is followed, and a closed one is refused in words.
 */
export class ElectronDesktop implements Desktop {
  constructor(
    private readonly electron: ElectronSurface,
    private readonly exclusion: WindowExclusion,
    /** How long a pane's place or a capture of the window is waited for. */
    private readonly pageLimitMs = PAGE_ANSWER_LIMIT_MS,
  ) {}

  /** The process that owns Tandem's windows (the window system lists them under it). */
  get pid(): number {
    return this.electron.pid;
  }

  async availability(): Promise<Extract<DesktopAvailability, { available: true }>> {
    const ocr = missingOcr();
    return { available: true, implementation: 'Electron', screenInput: false, ...(ocr ? { lacking: { ocr } } : {}) };
  }

  async listWindows(): Promise<WindowInfo[]> {
    const window = this.openWindow();
    if (!window) return [];
    const bounds = window.getContentBounds();
    const centre = { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 };
    const displays = this.electron.screen.getAllDisplays();
    const screen = Math.max(0, displays.findIndex((display) => rectContains(display.bounds, centre)));
    return [
      {
        id: TANDEM_WINDOW_ID,
        title: window.getTitle(),
        application: 'Tandem',
        instance: 'tandem',
        pid: this.electron.pid,
        geometry: bounds,
        frame: bounds,
        focused: window.isFocused(),
        visible: !window.isMinimized(),
        screen,
        excluded: false,
      },
    ];
  }

  async screens(): Promise<ScreenInfo[]> {
    const primaryId = this.electron.screen.getPrimaryDisplay().id;
    return this.electron.screen.getAllDisplays().map((display, index) => ({ index, name: `display ${display.id}`, rect: display.bounds, primary: display.id === primaryId }));
  }

  async screenshot(target: CaptureTarget, signal?: AbortSignal): Promise<Screenshot> {
    if (isOwnWindow(target)) {
      const { image, area, space } = await this.captureTandem(target);
      stopIfAborted(signal);
      return { png: fitted(image, space).toPNG(), space, description: tandemDescription(target, area), blackedOut: 0 };
    }
    if (target.kind === 'screen') return this.captureScreen(target.screen, signal);
    throw new DesktopError('unavailable', `capturing a ${target.kind} other than Tandem's window needs X11 (DISPLAY) on this system`);
  }

  async readText(target: CaptureTarget, signal?: AbortSignal): Promise<ScreenText> {
    if (!isOwnWindow(target)) throw new DesktopError('unavailable', "reading text outside Tandem's window needs X11 (DISPLAY) on this system");
    const { image, area, space } = await this.captureTandem(target);
    stopIfAborted(signal);
    const words = await recognizeText(bgraToRgba(image.resize({ width: area.width, height: area.height, quality: 'best' })), area, space, signal);
    return { words, text: wordsAsLines(words), space, description: tandemDescription(target, area) };
  }

  async act(action: UiAction, surface: Surface = 'tandem', signal?: AbortSignal): Promise<void> {
    if ('windowId' in action) {
      if (action.windowId !== TANDEM_WINDOW_ID) throw new DesktopError('unavailable', 'acting on other windows needs X11 (DISPLAY) on this system');
      if (action.kind === 'focus_window' || action.kind === 'raise_window') return this.window().focus();
      throw new DesktopError('invalid', `${action.kind} is not done to Tandem's own window; ask the user`);
    }
    if (surface !== 'tandem') throw new DesktopError('unavailable', "Electron sends input only to Tandem's own window; other applications need X11 (DISPLAY)");
    const events = inputEvents(action);
    const { webContents } = this.window();
    for (const event of events) {
      stopIfAborted(signal);
      webContents.sendInputEvent(event);
    }
  }

  async readClipboard(): Promise<string> {
    return this.electron.clipboard.readText();
  }

  async writeClipboard(text: string): Promise<void> {
    await this.electron.clipboard.writeText(text);
  }

  async notify(notification: DesktopNotification): Promise<void> {
    this.electron.showNotification(notification.title, notification.body);
  }

  /** Tandem's window now, or undefined while it is closed. */
  private openWindow(): ElectronWindow | undefined {
    const window = this.electron.window();
    return window && !window.isDestroyed() ? window : undefined;
  }

  private window(): ElectronWindow {
    const window = this.openWindow();
    if (!window) throw new DesktopError('not_found', "Tandem's window is not open (it was closed), so it cannot be captured or sent input");
    return window;
  }

  private async captureTandem(target: CaptureTarget): Promise<{ image: NativeImageLike; area: Rect; space: ScreenshotSpace }> {
    const window = this.window();
    const { width, height } = window.getContentBounds();
    const content = { x: 0, y: 0, width, height };
    const wanted = target.kind === 'pane' ? await paneRect(window, target.paneId, this.pageLimitMs) : target.kind === 'tandem' && target.rect ? target.rect : content;
    const area = intersectRects(wanted, content);
    if (!area) throw new DesktopError('outside', `${describeRect(wanted)} is outside Tandem's window (${width}×${height})`);
    const image = await pageAnswer(window.webContents.capturePage(area), this.pageLimitMs, "A capture of Tandem's window");
    if (image.isEmpty()) throw new DesktopError('failed', "Tandem's window gave an empty capture (is it minimized?)");
    return { image, area, space: ScreenshotSpace.forCapture(area, 'tandem') };
  }

  private async captureScreen(index: number | undefined, signal: AbortSignal | undefined): Promise<Screenshot> {
    const displays = this.electron.screen.getAllDisplays();
    const primaryId = this.electron.screen.getPrimaryDisplay().id;
    const display = index === undefined ? displays.find((candidate) => candidate.id === primaryId) : displays[index];
    if (!display) throw new DesktopError('not_found', `no screen ${index} (screens: 0–${displays.length - 1})`);
    const space = ScreenshotSpace.forCapture(display.bounds);
    const sources = await this.electron.desktopCapturer.getSources({
      types: ['screen', 'window'],
      thumbnailSize: { width: space.imageWidth, height: space.imageHeight },
      fetchWindowIcons: false,
    });
    stopIfAborted(signal);
    const excluded = sources.find(
      (source) => source.id.startsWith('window:') && this.exclusion.excludes({ title: source.name, application: '', instance: '' }),
    );
    if (excluded) {
      throw new DesktopError('excluded', 'a window on the privacy list is open; without X11 it cannot be blacked out, so the screen is not captured');
    }
    const screens = sources.filter((source) => source.id.startsWith('screen:'));
    const source = screens.find((candidate) => candidate.display_id === String(display.id)) ?? screens[displays.indexOf(display)];
    if (!source) throw new DesktopError('failed', `desktopCapturer offered no capture of screen ${displays.indexOf(display)}`);
    return { png: fitted(source.thumbnail, space).toPNG(), space, description: `screen ${displays.indexOf(display)}`, blackedOut: 0 };
  }
}

function tandemDescription(target: CaptureTarget, area: Rect): string {
  const what = target.kind === 'pane' ? `pane ${target.paneId} in Tandem's window` : "Tandem's window";
  return `${what} (${describeRect(area)} of its content)`;
}

/** The image at exactly the space's size (capturePage returns device pixels, thumbnails keep their own rounding). */
function fitted(image: NativeImageLike, space: ScreenshotSpace): NativeImageLike {
  const size = image.getSize();
  if (size.width === space.imageWidth && size.height === space.imageHeight) return image;
  return image.resize({ width: space.imageWidth, height: space.imageHeight, quality: 'best' });
}

function bgraToRgba(image: NativeImageLike): RgbaImage {
  const { width, height } = image.getSize();
  const bgra = image.toBitmap();
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = bgra[i + 2]!;
    data[i + 1] = bgra[i + 1]!;
    data[i + 2] = bgra[i]!;
    data[i + 3] = 255;
  }
  return { width, height, data };
}
