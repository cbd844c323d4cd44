import { readFileSync } from 'node:fs';

/** The pty's foreground process group as the shell sees it (Linux /proc), or undefined. */
export function foregroundGroupOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp session tty_nr tpgid ..." — comm may hold spaces and parens.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const tpgid = Number(fields[5]);
    return Number.isInteger(tpgid) && tpgid > 0 ? tpgid : undefined;
  } catch {
    return undefined;
  }
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
