import { readFileSync, readdirSync } from 'node:fs';

/** Every descendant pid of `pid` (Linux /proc; elsewhere just the process itself). */
export function descendantsOf(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const child of childrenOf(parent)) {
      if (!found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text) for (const child of text.split(/\s+/)) children.push(Number(child));
    }
  } catch {
    // The process is gone, or /proc is not available on this platform.
  }
  return children;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}

/**
 * Ends a shell and everything it started: SIGHUP to the shell and its descendants (what a
 * closing terminal window does), then SIGKILL to whatever is left after `graceMs`.
 */
export function killProcessTree(pid: number, graceMs = 1_000): void {
  const tree = [pid, ...descendantsOf(pid)];
  for (const member of tree) signal(member, 'SIGHUP');
  setTimeout(() => {
    for (const member of tree) signal(member, 'SIGKILL');
  }, graceMs).unref();
}
