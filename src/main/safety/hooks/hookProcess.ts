import { spawn, type ChildProcess } from 'node:child_process';

/** Each of stdout and stderr is read up to this many bytes; the rest is drained and dropped. */
export const HOOK_OUTPUT_CAP_BYTES = 64 * 1024;

/**
 * After the hook exits, how long to wait for its stdout/stderr to close. A background child it
 * left behind (`notify-send … &`) keeps the pipes open; we stop reading rather than wait for it.
 */
const PIPE_CLOSE_GRACE_MS = 250;

export interface HookProcessOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  input: string;
  timeoutMs: number;
}

export interface HookProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  timedOut: boolean;
  spawnError?: Error;
}

/**
 * Runs one hook executable with `input` on its stdin. Never rejects. The hook gets its own process
 * group so that a timeout kills everything it started, not just the top process.
 */
export function runHookProcess(file: string, options: HookProcessOptions): Promise<HookProcessResult> {
  return new Promise((resolve) => {
    const stdout = new CappedOutput();
    const stderr = new CappedOutput();
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;
    let child: ChildProcess | undefined;

    const finish = (outcome: { timedOut?: boolean; spawnError?: Error }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      clearTimeout(graceTimer);
      child?.stdout?.destroy();
      child?.stderr?.destroy();
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutTruncated: stdout.truncated,
        timedOut: outcome.timedOut ?? false,
        spawnError: outcome.spawnError,
      });
    };

    const timeoutTimer = setTimeout(() => {
      if (child) killProcessGroup(child);
      finish({ timedOut: true });
    }, options.timeoutMs);

    try {
      child = spawn(file, [], {
        cwd: options.cwd,
        env: options.env,
        detached: process.platform !== 'win32',
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (error) {
      finish({ spawnError: error as Error });
      return;
    }

    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    // EPIPE when the hook exits without reading its input; its answer still counts.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input);

    child.on('error', (error) => finish({ spawnError: error }));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      if (settled) return;
      graceTimer = setTimeout(() => finish({}), PIPE_CLOSE_GRACE_MS);
    });
    child.on('close', (code, signal) => {
      exit ??= { code, signal };
      finish({});
    });
  });
}

function killProcessGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill('SIGKILL');
    else process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone, or the group could not be signalled; kill at least the hook itself.
    child.kill('SIGKILL');
  }
}

class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  push(chunk: Buffer): void {
    const room = HOOK_OUTPUT_CAP_BYTES - this.size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept !== chunk) this.truncated = true;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
