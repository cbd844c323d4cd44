/**
 * Imports a renderer module that refers to browser globals (`window`, `navigator`).
 *
 * Unit tests run under tsconfig.node.json (no DOM lib), so a static import would pull the
 * module into that typecheck and fail on `window`; tsconfig.web.json already checks it. The
 * caller states the part of the module's shape it uses, and stubs the globals first.
 */
export async function importRendererModule<T>(pathFromRendererSrc: string): Promise<T> {
  const url = new URL(`../../../src/renderer/src/${pathFromRendererSrc}`, import.meta.url);
  return (await import(/* @vite-ignore */ url.pathname)) as T;
}
