import { createRequire } from 'node:module';

type SqliteModule = typeof import('node-sqlite3-wasm');

let loaded: SqliteModule | undefined;

/**
 * node-sqlite3-wasm, loaded on first use: it compiles its WebAssembly synchronously (~16 ms),
 * which only the process that owns the history database should pay. It is CommonJS whose
 * exports ES modules cannot name, hence `require`.
 */
export function sqlite(): SqliteModule {
  loaded ??= createRequire(import.meta.url)('node-sqlite3-wasm') as SqliteModule;
  return loaded;
}
