import { readProcStat } from './procStat';

/** The pty's foreground process group as the shell sees it (Linux /proc), or undefined. */
export function foregroundGroupOf(pid: number): number | undefined {
  const terminalGroup = readProcStat(pid)?.terminalGroup;
  return terminalGroup !== undefined && terminalGroup > 0 ? terminalGroup : undefined;
}

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // Already gone.
  }
}

/**
 * Closing a pane does what closing a terminal window does: SIGHUP to the shell (which
 * passes it on to its jobs) and to the foreground job. Jobs the user detached on purpose
 * (`nohup`, `disown`, `setsid`) keep running. Whatever of the shell and its foreground job
 * is still there after `graceMs` gets SIGKILL.
 */
export function hangUp(shellPid: number, graceMs = 1_000): void {
  const foreground = foregroundGroupOf(shellPid);
  const group = foreground !== undefined && foreground !== shellPid ? foreground : undefined;
  signal(shellPid, 'SIGHUP');
  if (group) signal(-group, 'SIGHUP');
  setTimeout(() => {
    signal(shellPid, 'SIGKILL');
    if (group) signal(-group, 'SIGKILL');
  }, graceMs).unref();
}
