/**
 * Imports a renderer module afresh, after the test has stubbed the browser globals it reads
 * when it loads (`window`, `navigator`). Typed by the module itself:
 * `importRendererModule<typeof import('…/chords')>('actions/chords.ts')`.
 */
export async function importRendererModule<T>(pathFromRendererSrc: string): Promise<T> {
  const url = new URL(`../../../src/renderer/src/${pathFromRendererSrc}`, import.meta.url);
  return (await import(/* @vite-ignore */ url.pathname)) as T;
}
