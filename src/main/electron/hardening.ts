import { app, session, shell, type WebContents } from 'electron';

/**
 * Process-wide Electron hardening: every renderer is sandboxed, no page may navigate away,
 * open windows, embed <webview> or get a permission (camera, notifications, ...).
 */
export function hardenElectron(isOwnPage: (url: string) => boolean): void {
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents: WebContents) => {
    // Links in the terminal (Ctrl+click) open in the user's browser, never in a Tandem window.
    contents.setWindowOpenHandler(({ url }) => {
      if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      if (!isOwnPage(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  // Only clipboard access (copy/paste in the terminal), and only for our own page.
  const allowed = new Set(['clipboard-read', 'clipboard-sanitized-write']);
  app.whenReady().then(() => {
    session.defaultSession.setPermissionRequestHandler((contents, permission, callback) =>
      callback(allowed.has(permission) && isOwnPage(contents.getURL())),
    );
    session.defaultSession.setPermissionCheckHandler(
      (contents, permission) => allowed.has(permission) && contents !== null && isOwnPage(contents.getURL()),
    );
  });
}
