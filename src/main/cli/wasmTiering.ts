import { setFlagsFromString } from 'node:v8';

/**
 * For a process that parses a few command lines and exits (`tandem policy check`): run the bash
 * grammar's WebAssembly on V8's baseline compiler (Liftoff) only. Otherwise V8 soon tiers the
 * grammar's lexer up to its optimizing compiler on a background thread, one function that
 * takes about 0.7 s of CPU to compile, and Node waits for that job before the process can
 * exit. The engine keeps the default: it parses all day, where the optimized lexer pays off.
 * Must run before the grammar is first loaded; V8 reads the flag when it compiles the module.
 */
export function keepWasmOnBaselineCompiler(): void {
  setFlagsFromString('--liftoff-only');
}
