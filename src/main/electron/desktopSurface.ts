import { clipboard, desktopCapturer, Notification, screen, type BrowserWindow } from 'electron';
import type { ElectronSurface } from '../desktop/electron/electronSurface';

/**
 * The Electron APIs the desktop capability uses (`src/main/desktop/electron/`), for whichever
 * main window is open at the time (`currentWindow` is asked on every use). The real objects
 * are passed as they are: that they fit ElectronSurface is checked by the compiler against
 * Electron's own types.
 */
export function desktopSurface(currentWindow: () => BrowserWindow | undefined): ElectronSurface {
  return {
    window: currentWindow,
    desktopCapturer,
    screen,
    clipboard,
    showNotification: (title, body) => new Notification({ title, body }).show(),
    pid: process.pid,
  };
}
