import { readdirSync, readFileSync } from 'node:fs';

/** Live processes whose command line is exactly `commandLine` (its words joined by spaces), by pid; zombies do not count. */
export function processesMatching(commandLine: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const words = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (words.join(' ') !== commandLine) continue;
      const state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
      if (state !== 'Z') pids.push(Number(entry));
    } catch {
      // It ended while we looked.
    }
  }
  return pids;
}
