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

/** Clipboard access (copy/paste in the terminal); the microphone is `media` and judged apart. */
const ALLOWED_PERMISSIONS = new Set(['clipboard-read', 'clipboard-sanitized-write']);

export interface PermissionAsk {
  permission: string;
  isMainFrame: boolean;
  /** The URL of the frame that asks (absent for cross-origin subframes). */
  requestingUrl: string | undefined;
  /** For `media`: what it wants (a request's `mediaTypes`, a check's one `mediaType`); absent: not said. */
  mediaTypes?: readonly string[];
}

/**
 * A permission is granted to our page's main frame only: the clipboard, and `media` when it
 * asks for the microphone alone (push-to-talk, docs/voice.md) — never the camera, never a
 * request that does not say it wants audio only.
 */
export function mayUsePermission(ask: PermissionAsk, isOwnPage: (url: string) => boolean): boolean {
  const fromOwnPage = ask.isMainFrame && ask.requestingUrl !== undefined && isOwnPage(ask.requestingUrl);
  if (ask.permission === 'media') return fromOwnPage && isAudioOnly(ask.mediaTypes);
  return ALLOWED_PERMISSIONS.has(ask.permission) && fromOwnPage;
}

function isAudioOnly(mediaTypes: readonly string[] | undefined): boolean {
  return mediaTypes !== undefined && mediaTypes.length > 0 && mediaTypes.every((type) => type === 'audio');
}
