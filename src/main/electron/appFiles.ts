import { extname, join, normalize, sep } from 'node:path';

/**
 * The renderer's files as the Electron window loads them: `tandem://app/<path>` maps to a
 * file under the built renderer directory and nowhere else. Kept free of Electron imports so
 * it is unit-tested; appProtocol.ts serves what this resolves.
 */
export const APP_SCHEME = 'tandem';
export const APP_HOST = 'app';
export const APP_PAGE_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * The page's policy, sent as a header with every file. The page talks to the engine over a
 * MessagePort only, so it may fetch nothing; scripts and styles come from the app itself.
 */
export const APP_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** The file a `tandem://app/...` URL names under `rootDir`, or undefined if it names none there. */
export function resolveAppFile(rootDir: string, url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return undefined;
  }
  if (path.includes('\0')) return undefined;
  const root = normalize(rootDir.endsWith(sep) ? rootDir : rootDir + sep);
  const file = normalize(join(root, path === '/' ? 'index.html' : path));
  return file.startsWith(root) ? file : undefined;
}

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}
