import type { CaptureTarget, Desktop, DesktopAvailability, DesktopNotification, ScreenInfo, Screenshot, ScreenText, UiAction, WindowInfo } from './desktop';
import { DesktopError } from './desktopError';
import { ElectronDesktop } from './electron/electronDesktop';
import type { ElectronSurface } from './electron/electronSurface';
import { isOwnWindow, OWN_WINDOW_NEEDS_ELECTRON, TANDEM_WINDOW_ID } from './ownWindow';
import type { WindowExclusion } from './privacy/windowExclusion';
import type { Surface } from './screenshotSpace';
import { UnavailableDesktop, whyNoX11 } from './unavailableDesktop';
import { X11Desktop } from './x11/x11Desktop';

export interface DesktopChoice {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  exclusion: WindowExclusion;
  /** Present when running in the Electron app (absent in browser mode and tests). */
  electron?: ElectronSurface;
}

/**
 * The desktop for this process, chosen at run time: Electron for Tandem's own window (and the
 * clipboard and notifications, which it does on every platform); X11 for the screen and
 * other windows when DISPLAY is set on Linux; otherwise those requests say why not.
 */
export function chooseDesktop({ platform, env, exclusion, electron }: DesktopChoice): Desktop {
  const x11 = platform === 'linux' && env.DISPLAY ? new X11Desktop(env.DISPLAY, exclusion, env.PATH) : undefined;
  const own = electron ? new ElectronDesktop(electron, exclusion) : undefined;
  if (!x11 && !own) return new UnavailableDesktop(whyNoX11(platform, env));
  return new RoutedDesktop(x11, own, whyNoX11(platform, env));
}

/** Sends each request to the implementation for its target; requests none can serve reject (never throw) with the reason. */
class RoutedDesktop implements Desktop {
  constructor(
    private readonly x11: X11Desktop | undefined,
    private readonly electron: ElectronDesktop | undefined,
    private readonly noX11: string,
  ) {}

  async availability(): Promise<DesktopAvailability> {
    const own = await this.electron?.availability();
    if (!this.x11) return { ...own!, implementation: `Electron (Tandem's window only; ${this.noX11})` };
    const x11 = await this.x11.availability();
    if (!own) return x11;
    if (!x11.available) return { ...own, implementation: `Electron (Tandem's window only; ${x11.reason})` };
    // Electron clicks and types into Tandem's own window, with or without xdotool.
    const ocr = x11.lacking?.ocr;
    return { available: true, implementation: `${x11.implementation} + Electron for Tandem's window`, screenInput: x11.screenInput, ...(ocr ? { lacking: { ocr } } : {}) };
  }

  async listWindows(signal?: AbortSignal): Promise<WindowInfo[]> {
    const own = (await this.electron?.listWindows()) ?? [];
    if (!this.x11) return own;
    const others = await this.x11.listWindows(signal);
    const ownPid = this.electron?.pid;
    // Tandem's window appears once, under the id its Electron implementation answers to (none while it is closed).
    return [...others.filter((window) => ownPid === undefined || window.pid !== ownPid), ...own];
  }

  async screens(): Promise<ScreenInfo[]> {
    return (this.x11 ?? this.need(this.electron, this.noX11)).screens();
  }

  async screenshot(target: CaptureTarget, signal?: AbortSignal): Promise<Screenshot> {
    return this.forTarget(target).screenshot(target, signal);
  }

  async readText(target: CaptureTarget, signal?: AbortSignal): Promise<ScreenText> {
    return this.forTarget(target).readText(target, signal);
  }

  async act(action: UiAction, surface: Surface = 'desktop', signal?: AbortSignal): Promise<void> {
    const own = surface === 'tandem' || ('windowId' in action && action.windowId === TANDEM_WINDOW_ID);
    if (own) return this.need(this.electron, "Tandem's window is driven through Electron, absent in browser mode").act(action, 'tandem', signal);
    return this.need(this.x11, this.noX11).act(action, 'desktop', signal);
  }

  async readClipboard(): Promise<string> {
    return (this.electron ?? this.need(this.x11, this.noX11)).readClipboard();
  }

  async writeClipboard(text: string): Promise<void> {
    return (this.electron ?? this.need(this.x11, this.noX11)).writeClipboard(text);
  }

  async notify(notification: DesktopNotification): Promise<void> {
    return (this.electron ?? this.need(this.x11, this.noX11)).notify(notification);
  }

  private forTarget(target: CaptureTarget): Desktop {
    if (isOwnWindow(target)) return this.need(this.electron, `${OWN_WINDOW_NEEDS_ELECTRON} (capture the browser's window by id or the screen instead)`);
    if (this.x11) return this.x11;
    if (target.kind === 'screen' && this.electron) return this.electron;
    throw new DesktopError('unavailable', this.noX11);
  }

  private need<T>(implementation: T | undefined, reason: string): T {
    if (!implementation) throw new DesktopError('unavailable', reason);
    return implementation;
  }
}
