import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('./historyProcess.ts', import.meta.url));

/** A running test/support/historyProcess.ts, with what it printed so far. */
export interface HistoryChild {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  /** Resolves with the exit code and signal once it has ended. */
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

export function startHistoryProcess(...args: string[]): HistoryChild {
  const child = spawn(process.execPath, ['--import', 'jiti/register', script, ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, lines, stderr: () => stderr, exited };
}

/** Kills what is still running (by its own pid) at the end of a test. */
export function killLeftovers(children: HistoryChild[]): void {
  for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
