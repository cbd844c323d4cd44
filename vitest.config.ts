import { dirname, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';
import { shellTimeout } from './test/support/shellTimeout';

const MODULE_PATH = '?modulePath';
const require = createRequire(import.meta.url);

/**
 * electron-vite turns `import path from './worker?modulePath'` into the path of a built
 * script. Under Vitest the worker is TypeScript source: the path becomes a tiny module (a
 * data: URL) that loads that source through jiti, so tests run the real worker thread.
 */
function nodeWorkerModulePath(): Plugin {
  return {
    name: 'tandem:node-worker-module-path',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!source.endsWith(MODULE_PATH) || !importer) return undefined;
      return `\0module-path:${resolve(dirname(importer), source.slice(0, -MODULE_PATH.length))}.ts`;
    },
    load(id) {
      if (!id.startsWith('\0module-path:')) return undefined;
      const file = id.slice('\0module-path:'.length);
      const jiti = pathToFileURL(require.resolve('jiti')).href;
      const bootstrap = `import { createJiti } from ${JSON.stringify(jiti)};\nawait createJiti(${JSON.stringify(pathToFileURL(file).href)}).import(${JSON.stringify(file)});\n`;
      return `export default ${JSON.stringify(`data:text/javascript,${encodeURIComponent(bootstrap)}`)};`;
    },
  };
}

export default defineConfig({
  plugins: [nodeWorkerModulePath()],
  test: {
    include: ['test/**/*.test.ts'],
    // Tests wait for real shells, ptys and threads: their limits scale with how busy the machine is.
    testTimeout: shellTimeout(30_000),
    hookTimeout: shellTimeout(30_000),
    pool: 'forks',
  },
});
