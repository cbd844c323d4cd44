import { spawn } from 'node:child_process';
import { DesktopError } from './desktopError';
import { interrupted, type ToolOptions } from './toolProcess';

export interface BatchedTool {
  command: string;
  args: readonly string[];
}

/** A tool's stdout, or why it gave none (the errors runTool rejects with). */
export type BatchResult = Buffer | DesktopError;

const DEFAULT_TIMEOUT_MS = 10_000;
/** sh redirects file descriptors 0–9 only: stdouts on 3–9. */
const MAX_TOOLS = 7;
const NOT_FOUND = 127;
const NOT_EXECUTABLE = 126;
const SIGNALLED = 128;

/**
 * Runs up to seven short tools at once from one `sh`, each with its own stdout pipe (their
 * stderr is shared: a failure's message is its last lines), and gives each one's result. Starting a process costs the engine 5–25 ms of its one thread
 * (fork copies the page tables of a big process; sh's own forks are cheap), so a window list
 * read with three tools costs one start instead of three. An abort of `signal` or the timeout
 * kills the shell and every tool (their process group) and rejects the whole batch.
 */
export function runToolBatch(tools: readonly BatchedTool[], options: Omit<ToolOptions, 'input' | 'detachesChild'> = {}): Promise<BatchResult[]> {
  return new Promise((resolve, reject) => {
    const { signal } = options;
    if (tools.length > MAX_TOOLS) throw new Error(`runToolBatch runs at most ${MAX_TOOLS} tools`);
    if (tools.length === 0) {
      resolve([]);
      return;
    }
    if (signal?.aborted) {
      reject(interrupted(tools.map((tool) => tool.command).join(', ')));
      return;
    }
    // Tool i writes its stdout to fd 3 + i; the shell prints their exit statuses on its own.
    const script = [
      ...tools.map((tool, i) => `${[tool.command, ...tool.args].map(quoted).join(' ')} >&${3 + i} & p${i}=$!`),
      ...tools.map((_, i) => `wait $p${i}; s${i}=$?`),
      `echo ${tools.map((_, i) => `$s${i}`).join(' ')}`,
    ].join('\n');
    const child = spawn('sh', ['-c', script], {
      env: { ...process.env, LC_ALL: 'C.UTF-8', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe', ...tools.map(() => 'pipe' as const)],
      detached: true, // its own process group, so a kill reaches the tools too
    });
    const outputs = child.stdio.slice(1).map((stream) => {
      const chunks: Buffer[] = [];
      stream?.on('data', (chunk: Buffer) => chunks.push(chunk));
      return chunks;
    });
    const killAll = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL'); // already gone, or no group
      }
    };
    const onAbort = () => {
      killAll();
      reject(interrupted(tools.map((tool) => tool.command).join(', ')));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = setTimeout(() => {
      killAll();
      reject(new DesktopError('failed', `${tools.map((tool) => tool.command).join(', ')} did not finish within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const settled = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error) => {
      settled();
      reject(new DesktopError('failed', `sh could not start: ${error.message}`));
    });
    child.on('close', (code) => {
      settled();
      const statuses = Buffer.concat(outputs[0]!).toString('utf8').trim().split(' ').map(Number);
      const stderr = Buffer.concat(outputs[1]!).toString('utf8').trim().split('\n').slice(-3).join(' ');
      if (code !== 0 || statuses.length !== tools.length) {
        reject(new DesktopError('failed', `sh exited with ${code}: ${stderr}`));
        return;
      }
      resolve(
        tools.map((tool, i) => {
          const status = statuses[i]!;
          if (status === 0) return Buffer.concat(outputs[2 + i]!);
          if (status === NOT_FOUND) return new DesktopError('unavailable', `${tool.command} is not installed`);
          if (status === NOT_EXECUTABLE) return new DesktopError('failed', `${tool.command} could not start: ${stderr}`);
          const how = status > SIGNALLED ? `was killed (signal ${status - SIGNALLED})` : `exited with ${status}`;
          return new DesktopError('failed', `${tool.command} ${how}${stderr ? `: ${stderr}` : ''}`);
        }),
      );
    });
  });
}

/** One word for sh: single-quoted, a quote inside as '\''. */
function quoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
