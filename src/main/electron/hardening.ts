import { app, session, shell, type WebContents } from 'electron';
import { isOpenableExternalUrl } from '../../shared/externalLinks';
import { mayUsePermission } from './senderCheck';

/**
 * Process-wide Electron hardening: every renderer is sandboxed, no page may navigate away,
 * open windows, embed <webview> or get a permission (camera, notifications, ...) beyond the
 * clipboard and the microphone for push-to-talk (senderCheck.ts).
 */
export function hardenElectron(isOwnPage: (url: string) => boolean): void {
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents: WebContents) => {
    // Links the page decided to open (terminal links, after the user confirmed) go to the
    // user's browser or mail client, never into a Tandem window.
    contents.setWindowOpenHandler(({ url }) => {
      if (isOpenableExternalUrl(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      if (!isOwnPage(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  app.whenReady().then(() => {
    // Judged by the frame that asks, not by the window's top page: an iframe gets nothing.
    session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) =>
      callback(
        mayUsePermission(
          { permission, isMainFrame: details.isMainFrame, requestingUrl: details.requestingUrl, mediaTypes: 'mediaTypes' in details ? details.mediaTypes : undefined },
          isOwnPage,
        ),
      ),
    );
    session.defaultSession.setPermissionCheckHandler((_contents, permission, _origin, details) =>
      mayUsePermission(
        { permission, isMainFrame: details.isMainFrame, requestingUrl: details.requestingUrl, mediaTypes: details.mediaType ? [details.mediaType] : undefined },
        isOwnPage,
      ),
    );
  });
}
