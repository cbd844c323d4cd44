/**
 * The rules the Electron transport applies before it hands out an engine port, kept free
 * of Electron imports so they are unit-tested.
 */

/** True when `url` is our renderer page itself (query and fragment ignored), nothing else. */
export function ownPageMatcher(ownPageUrl: string): (url: string) => boolean {
  const own = new URL(ownPageUrl);
  return (url: string) => {
    let candidate: URL;
    try {
      candidate = new URL(url);
    } catch {
      return false;
    }
    return candidate.protocol === own.protocol && candidate.host === own.host && candidate.pathname === own.pathname;
  };
}

export interface ConnectRequest {
  /** The IPC came from the webContents of our main window. */
  fromOurWindow: boolean;
  /** ... and from its main frame, not an iframe. */
  fromMainFrame: boolean;
  /** The URL the sending frame shows. */
  frameUrl: string;
  /** Arguments sent with the request (the handshake takes none). */
  argumentCount: number;
}

export function mayConnect(request: ConnectRequest, isOwnPage: (url: string) => boolean): boolean {
  return request.argumentCount === 0 && request.fromOurWindow && request.fromMainFrame && isOwnPage(request.frameUrl);
}

/** Only clipboard access (copy/paste in the terminal). */
const ALLOWED_PERMISSIONS = new Set(['clipboard-read', 'clipboard-sanitized-write']);

export interface PermissionAsk {
  permission: string;
  isMainFrame: boolean;
  /** The URL of the frame that asks (absent for cross-origin subframes). */
  requestingUrl: string | undefined;
}

/** A permission is granted to our page's main frame only, and only the clipboard. */
export function mayUsePermission(ask: PermissionAsk, isOwnPage: (url: string) => boolean): boolean {
  return ALLOWED_PERMISSIONS.has(ask.permission) && ask.isMainFrame && ask.requestingUrl !== undefined && isOwnPage(ask.requestingUrl);
}
