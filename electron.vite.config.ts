import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

/**
 * Packages only the mirror thread uses. They are bundled into its script instead of being
 * left as imports of node_modules: the packaged app runs that script from
 * app.asar.unpacked, where no node_modules lie beside it (see docs/packaging.md).
 */
const BUNDLED_INTO_MIRROR_WORKER = ['@xterm/headless', '@xterm/addon-serialize', '@xterm/addon-unicode11'];

/**
 * Bundled too, because a process that starts often must not resolve hundreds of small files:
 * - the model SDKs: Node's resolving them was most of `tandem agent`'s start (≈140 ms of the
 *   Anthropic SDK's ≈165; bundled, ≈30; `bench/suites/agentcli.js` measures it)
 * - zod (110 files, all its locales included), smol-toml and picomatch: what `tandem policy check`,
 *   `audit verify` and `trace` need of node_modules besides the bash grammar; loaded from there,
 *   they were about 80 ms of the policy check's ≈200 over a bare `node -e 0`
 *   (`bench/suites/cli.js`; docs/architecture.md, CLI start)
 * - @opentelemetry/api, which the Anthropic SDK imports (its spans; Tandem registers no global
 *   provider, and its own OTLP spans use only the API's enums): 70 CommonJS files, ≈20 ms of
 *   `tandem agent`'s start when read from node_modules
 */
const BUNDLED_FOR_START = ['@anthropic-ai/sdk', '@opentelemetry/api', 'openai', 'zod', 'smol-toml', 'picomatch'];
// The OpenTelemetry SDK and OTLP exporter stay imports of node_modules (they are in
// `dependencies`): only src/main/telemetry/otlpExport.ts imports them, and only when OTLP is on.
// Bundled, their CommonJS and protobuf code made that chunk 850 KB and slower to load (and
// moved @opentelemetry/api, which the bundled Anthropic SDK imports, into the engine chunk).

/** The worker threads' scripts: each a `?modulePath` import, run from app.asar.unpacked when packaged. */
const WORKER_SCRIPTS = new Set(['mirrorWorker', 'ownerWorker']);

/**
 * File names of the main build's chunks. electron-vite builds a `?modulePath` import (a worker
 * thread's script) with this same config and names its entry like a chunk; those are `.mjs`,
 * so Node runs them as ES modules wherever they lie — also unpacked from the asar, where no
 * package.json with `"type": "module"` is above them.
 */
function mainChunkFileName(chunk: { name: string }): string {
  return WORKER_SCRIPTS.has(chunk.name) ? 'chunks/[name]-[hash].mjs' : 'chunks/[name]-[hash].js';
}

// Three builds: main (the engine + Electron entry + the `tandem web` CLI entry; the mirror
// thread's script is an entry of its own through its `?modulePath` import),
// preload, and the renderer (one bundle served by Electron and by browser mode).
export default defineConfig({
  main: {
    // Resolve packages the way Node does (their `main`), not through a `module` build: the
    // bundled mirror packages then behave exactly as they do unbundled (Vitest, `tandem web`
    // before this change), default import included.
    ssr: { resolve: { mainFields: ['main'] } },
    build: {
      // Packages in `dependencies` stay imports (electron-builder ships them); everything
      // else, and the mirror thread's packages, is bundled.
      externalizeDeps: { exclude: [...BUNDLED_INTO_MIRROR_WORKER, ...BUNDLED_FOR_START] },
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/cli.ts'),
        },
        output: {
          chunkFileNames: mainChunkFileName,
          // Without the JSDoc comments (the `// src/…` module markers and licences stay): they were 30% of
          // the engine chunk's 2 MB, and V8 reads every byte of a chunk when a command imports it
          // (`tandem agent`'s chunks load 3–5 ms sooner).
          comments: { jsdoc: false, annotation: true, legal: true },
          // zod in a chunk of its own, shared by the engine and the subcommands that validate
          // (policy check, audit verify, trace), instead of beside whichever module came first.
          // Only where two chunks share it: a worker thread's script (its own build) keeps zod
          // inside, since it runs unpacked from the asar, where no chunk lies beside it.
          codeSplitting: { groups: [{ name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/, minShareCount: 2 }] },
        },
        // Code the Electron entry shares with a CLI subcommand stays in a chunk of its own. By
        // default rolldown merges it into index.js, and `tandem policy check` under plain Node
        // would then import index.js, and with it Electron.
        experimental: { chunkOptimization: { mergeCommonChunks: false } },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    // Relative asset URLs: the page loads from tandem://app/ in Electron and from / in browser mode.
    base: './',
    plugins: [react()],
    build: {
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
