import { clipboard, desktopCapturer, Notification, screen, type BrowserWindow } from 'electron';
import type { ElectronSurface } from '../desktop/electron/electronSurface';

/**
 * The Electron APIs the desktop capability uses (`src/main/desktop/electron/`), for Tandem's
 * main window. The real objects are passed as they are: that they fit ElectronSurface is
 * checked by the compiler against Electron's own types.
 */
export function desktopSurface(window: BrowserWindow): ElectronSurface {
  return {
    window,
    desktopCapturer,
    screen,
    clipboard,
    showNotification: (title, body) => new Notification({ title, body }).show(),
    pid: process.pid,
  };
}
