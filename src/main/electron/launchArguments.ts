/**
 * What the user asked the `tandem` executable for, read from Electron's `process.argv`.
 * Kept free of Electron imports so it is unit-tested.
 *
 * Electron's argv is `[executable, ...switches, ...args]` in a packaged app and
 * `[executable, ...switches, appPath, ...args]` when started as `electron <appPath>`
 * (`process.defaultApp`). Launchers put Chromium switches in front: the AppImage adds
 * `--no-sandbox`, Playwright `--inspect=0 --remote-debugging-port=0`. Those are Chromium's;
 * everything after them is Tandem's command line.
 */
const TANDEM_FLAGS = new Set(['--help', '-h', '--version', '-v']);

function skipSwitches(args: readonly string[], from: number): number {
  let at = from;
  while (at < args.length && args[at]!.startsWith('--') && !TANDEM_FLAGS.has(args[at]!)) at++;
  return at;
}

export function tandemArguments(argv: readonly string[], defaultApp: boolean): string[] {
  let at = skipSwitches(argv, 1);
  if (defaultApp && at < argv.length) at = skipSwitches(argv, at + 1);
  return argv.slice(at);
}
