// Engine modules (TypeScript under src/, or test fixtures next to them) for suites that call
// them in this process, with no Electron and no server: bundled by vite, the engine's own
// build tool, in SSR mode, so dependencies stay external and resolve from node_modules at run
// time exactly as they do for out/main/ (the bash grammar's .wasm included).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { ROOT } from './root.js';

/**
 * `entries`: { name: 'src/…/module.ts' } relative to the repository. Bundles them into
 * out/bench/<dir>/ (shared code in shared chunks, so a module's state is one) and imports them.
 * `root`: another checkout to bundle them from (its own node_modules resolves the dependencies).
 */
export async function importEngineModules(dir, entries, root = ROOT) {
  const outDir = join(root, 'out/bench', dir);
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'node20',
      rollupOptions: {
        input: Object.fromEntries(Object.entries(entries).map(([name, path]) => [name, join(root, path)])),
        output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
      },
    },
  });
  const modules = {};
  for (const name of Object.keys(entries)) modules[name] = await import(pathToFileURL(join(outDir, `${name}.mjs`)).href);
  return modules;
}
