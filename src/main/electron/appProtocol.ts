import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { APP_CONTENT_SECURITY_POLICY, APP_SCHEME, contentTypeOf, resolveAppFile } from './appFiles';

/**
 * The window loads its page from `tandem://app/` rather than file://: a standard, secure
 * origin of its own, so 'self' in the page's policy means the app and nothing else on disk.
 */
export function registerAppScheme(): void {
  // Must run before the app is ready.
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, codeCache: true } }]);
}

export function serveAppFiles(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = request.method === 'GET' ? resolveAppFile(rendererDir, request.url) : undefined;
    if (!file) return new Response('Not found', { status: 404 });
    try {
      const body = await readFile(file);
      return new Response(body, {
        headers: {
          'Content-Type': contentTypeOf(file),
          'Content-Security-Policy': APP_CONTENT_SECURITY_POLICY,
          'X-Content-Type-Options': 'nosniff',
        },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}
