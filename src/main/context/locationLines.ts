/**
 * Lines that say where an error happened — a stack frame or a `file:line:col` — which an
 * excerpt keeps with the error they follow: `at fn (test/add.test.js:6:10)`, vitest's
 * `❯ test/add.test.js:5:21`, Python's `File "x.py", line 3`, Rust's `--> src/lib.rs:2:7`,
 * Go's `    add_test.go:12: got 4`, gcc's `x.c:3:5: …`.
 */

const LOCATION_PATTERNS: RegExp[] = [
  // JavaScript and Rust backtrace frames: `at fn (file:1:2)`, `at file:1:2`, `at ./src/lib.rs:11:9`.
  /^\s*at\s+(?:.*\()?[^\s()]*:\d+(?::\d+)?\)?\s*\{?\s*$/,
  // Python traceback frames.
  /^\s*File "[^"]+", line \d+/,
  // Rust diagnostics.
  /^\s*(?:-->|:::)\s*\S+:\d+(?::\d+)?/,
  // `path/file.ext:12[:5]` at the start of a line, after an optional marker (vitest's ❯, jest's ›).
  /^\s*(?:[❯›→>]\s*)?(?:\.{0,2}\/)?[\w@~.+-]+(?:\/[\w@~.+-]+)*\.[A-Za-z][A-Za-z0-9]{0,9}:\d+(?::\d+)?(?::|\s|$)/,
];

/** Frames inside a runtime or a dependency: less useful than the user's own. */
const RUNTIME_FRAME = /\(node:|\bat node:|\binternal\/|node_modules|\/rustc\/|<frozen |site-packages|\/usr\/lib\/python|\/lib\/go\/src\//;

/** How far after an error line its location lines are looked for. */
export const LOCATION_WINDOW = 20;
/** Location lines kept per error. */
export const MAX_LOCATIONS = 3;

export function isLocationLine(line: string): boolean {
  if (line.length > 1000) return false;
  return LOCATION_PATTERNS.some((re) => re.test(line));
}

/**
 * The location lines that belong to the error on line `errorLine`: those among the next
 * LOCATION_WINDOW lines, up to the next error line (`isError`), at most MAX_LOCATIONS — the
 * user's own frames first, a runtime's only when there are no others.
 */
export function locationsAfter(lines: readonly string[], errorLine: number, isError: (i: number) => boolean): number[] {
  const own: number[] = [];
  const runtime: number[] = [];
  const end = Math.min(lines.length, errorLine + 1 + LOCATION_WINDOW);
  for (let i = errorLine + 1; i < end && own.length < MAX_LOCATIONS; i++) {
    if (isError(i)) break;
    const line = lines[i] as string;
    if (!isLocationLine(line)) continue;
    (RUNTIME_FRAME.test(line) ? runtime : own).push(i);
  }
  return own.length > 0 ? own : runtime.slice(0, 1);
}
