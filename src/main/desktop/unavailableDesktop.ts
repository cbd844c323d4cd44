import type { CaptureTarget, Desktop, DesktopAvailability } from './desktop';
import { DesktopError } from './desktopError';
import { isOwnWindow, OWN_WINDOW_NEEDS_ELECTRON } from './ownWindow';

/** A system without a desktop implementation: every request says why, nothing crashes. */
export class UnavailableDesktop implements Desktop {
  constructor(readonly reason: string) {}

  async availability(): Promise<DesktopAvailability> {
    return { available: false, reason: this.reason };
  }

  screenshot = (target: CaptureTarget) => this.refuse(target);
  listWindows = () => this.refuse();
  screens = () => this.refuse();
  readText = (target: CaptureTarget) => this.refuse(target);
  act = () => this.refuse();
  readClipboard = () => this.refuse();
  writeClipboard = () => this.refuse();
  notify = () => this.refuse();

  private refuse(target?: CaptureTarget): Promise<never> {
    return Promise.reject(new DesktopError('unavailable', target && isOwnWindow(target) ? OWN_WINDOW_NEEDS_ELECTRON : this.reason));
  }
}

/** Why this system has no X11 desktop, in words for the user and the model. */
export function whyNoX11(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  const notYet = 'screenshots, OCR and UI actions on other windows are not available on this system yet';
  if (platform === 'darwin') return `macOS: ${notYet} (they need the ScreenCaptureKit and Accessibility APIs; see docs/desktop.md)`;
  if (platform === 'win32') return `Windows: ${notYet} (they need the Windows.Graphics.Capture and SendInput APIs; see docs/desktop.md)`;
  if (env.WAYLAND_DISPLAY) return `Wayland without X (no DISPLAY, no XWayland): ${notYet} (start Tandem under XWayland, or see docs/desktop.md)`;
  return `no graphical display (DISPLAY is not set): ${notYet}`;
}
