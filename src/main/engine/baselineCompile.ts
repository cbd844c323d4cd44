import { setFlagsFromString } from 'node:v8';

/**
 * For a process that runs the engine for hours (`tandem web`, the desktop app): V8 compiles each
 * function to its baseline code (Sparkplug, a quick one-pass compile) on its first call instead of
 * interpreting it until it has run many times. The paths a person waits on at the moment they
 * act — an approved plan step typed into its shell, the echo's frame after it — run a few times
 * an hour, so they stayed interpreted all day: approve → line in the pty took 0.85–0.9 ms (p95)
 * on the bench machine, 0.55–0.63 with this (docs/architecture.md, "Where the time goes"). Hot
 * paths are optimised as before. Must run before the engine's modules run their functions.
 */
export function compileOnFirstCall(): void {
  setFlagsFromString('--always-sparkplug');
}
