// CPU time of the calling thread, in seconds. Wall time on a shared machine also counts the time
// other processes held the core; process.cpuUsage() counts V8's GC and compiler threads, whose
// work lands in a run or not depending on when they wake. On Linux the kernel's per-thread
// counter (/proc/thread-self/schedstat, nanoseconds on the CPU) has neither; elsewhere the
// process's CPU time is the fallback.
import { readFileSync } from 'node:fs';

function fromSchedstat() {
  try {
    const read = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e9;
    return Number.isFinite(read()) ? read : undefined;
  } catch {
    return undefined;
  }
}

const schedstat = fromSchedstat();

export const threadCpuClock = schedstat ? 'this thread\'s CPU time' : 'the process\'s CPU time';

export function threadCpuSeconds() {
  if (schedstat) return schedstat();
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}
