// Linux /proc readers: CPU time and RSS of a process (and its descendants), and finding
// processes by a string in their command line (Chromium's user-data-dir).
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux; getconf CLK_TCK is 100 on every mainstream kernel.

/** utime + stime of `pid` in seconds, or undefined when it is gone. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) may contain spaces; everything after the last ')' is space separated.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** VmRSS in bytes. */
export function rssBytes(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export function childrenOf(pid) {
  const children = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text) for (const child of text.split(/\s+/)) children.push(Number(child));
    }
  } catch {
    // gone
  }
  return children;
}

export function descendantsOf(pid) {
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of childrenOf(queue.shift())) {
      if (!found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

export function cmdlineOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** Pids whose command line contains `needle`. */
export function pidsWithArgument(needle) {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if (cmdlineOf(Number(entry)).some((arg) => arg.includes(needle))) pids.push(Number(entry));
  }
  return pids;
}

/** CPU seconds summed over a set of pids (those that vanished count as 0). */
export function cpuOf(pids) {
  let total = 0;
  for (const pid of pids) total += cpuSeconds(pid) ?? 0;
  return total;
}

/**
 * A CPU meter over a window: `start()` then `stop()` returns, per named group, the share of
 * one core used during the window (1.0 = one full core).
 */
export function cpuMeter(groups) {
  let begin;
  let t0;
  return {
    start() {
      t0 = performance.now();
      begin = Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, cpuOf(pids())]));
    },
    stop() {
      const seconds = (performance.now() - t0) / 1000;
      const result = { seconds };
      for (const [name, pids] of Object.entries(groups)) result[name] = (cpuOf(pids()) - begin[name]) / seconds;
      return result;
    },
  };
}
