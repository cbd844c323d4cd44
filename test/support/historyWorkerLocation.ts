import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const worker = new URL('../../src/main/history/ownerThread/ownerWorker.ts', import.meta.url);

/**
 * The history owner thread's script, run from source through jiti: for test processes started
 * with `node --import jiti/register`, where electron-vite's `?modulePath` (which Vitest's config
 * maps the same way) is not there to resolve it.
 */
export function historyWorkerLocation(): URL {
  const jiti = pathToFileURL(require.resolve('jiti')).href;
  const bootstrap = `import { createJiti } from ${JSON.stringify(jiti)};\nawait createJiti(${JSON.stringify(worker.href)}).import(${JSON.stringify(worker.href)});\n`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}
