import { spawn } from 'node:child_process';
import { DesktopError } from './desktopError';

export interface ToolOptions {
  /** Written to the tool's stdin, which is then closed. */
  input?: Buffer | string;
  timeoutMs?: number;
  /** Added to the engine's environment (DISPLAY, locale). */
  env?: Record<string, string>;
  /**
   * Resolve when the tool's own process exits, ignoring its output: for `xclip -i`, which
   * forks a child that keeps serving the selection (and would hold the pipes open).
   */
  detachesChild?: boolean;
  /** Aborting it kills the tool at once (SIGKILL): the request rejects as `interrupted`. */
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Runs a desktop tool (xdotool, xwd, tesseract, …) without a shell and returns its stdout.
 * A missing tool is `unavailable` (the message names it); a non-zero exit or a timeout is
 * `failed` with the tool's own message; an abort of `signal` kills it and is `interrupted`.
 */
export function runTool(command: string, args: readonly string[], options: ToolOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) {
      reject(interrupted(command));
      return;
    }
    const child = spawn(command, args, {
      env: { ...process.env, LC_ALL: 'C.UTF-8', ...options.env },
      stdio: ['pipe', options.detachesChild ? 'ignore' : 'pipe', options.detachesChild ? 'ignore' : 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    const onAbort = () => {
      child.kill('SIGKILL');
      reject(interrupted(command));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new DesktopError('failed', `${command} did not finish within ${(options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000} s`));
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const settled = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      settled();
      reject(
        error.code === 'ENOENT'
          ? new DesktopError('unavailable', `${command} is not installed`)
          : new DesktopError('failed', `${command} could not start: ${error.message}`),
      );
    });
    child.on(options.detachesChild ? 'exit' : 'close', (code, killedBy) => {
      settled();
      if (code === 0) {
        resolve(Buffer.concat(stdout));
        return;
      }
      const message = Buffer.concat(stderr).toString('utf8').trim().split('\n').slice(-3).join(' ');
      reject(new DesktopError('failed', `${command} ${killedBy ? `was killed (${killedBy})` : `exited with ${code}`}${message ? `: ${message}` : ''}`));
    });
    child.stdin?.on('error', () => {
      // A tool that exits before reading its input is reported by its exit status.
    });
    child.stdin?.end(options.input ?? '');
  });
}

export function interrupted(command: string): DesktopError {
  return new DesktopError('interrupted', `${command} was stopped: the request was interrupted`);
}
