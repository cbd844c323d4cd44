import { readlinkSync } from 'node:fs';
import { basename } from 'node:path';
import { foregroundGroupOf } from './processTree';
import { listProcesses } from './procStat';

/**
 * Programs that page text and read keys from the terminal themselves. `less -X` (git's
 * default `LESS=FRX`) and `more` stay on the main screen, so the alternate screen cannot
 * tell that one is waiting for a key.
 */
const PAGERS = new Set(['less', 'more', 'most', 'pg', 'moar', 'moor', 'lv', 'pspg', 'ov', 'pager', 'sensible-pager']);

/** The file a process runs, by name: Debian's git starts less as `pager` (an alternatives link), which is its comm. */
function executableOf(pid: number): string | undefined {
  try {
    return basename(readlinkSync(`/proc/${pid}/exe`));
  } catch {
    return undefined;
  }
}

/**
 * The names of the processes in the pty's foreground job (Linux /proc), each as it calls
 * itself and as the file it runs, or undefined when the shell itself is in the foreground
 * or /proc cannot tell. `git log` is `git` and the `less` it started, in one process group.
 */
export function foregroundJobNames(shellPid: number): string[] | undefined {
  const group = foregroundGroupOf(shellPid);
  if (group === undefined || group === shellPid) return undefined;
  const processes = listProcesses();
  if (!processes) return undefined;
  const names: string[] = [];
  for (const stat of processes) {
    if (stat.group !== group) continue;
    names.push(stat.name);
    const executable = executableOf(stat.pid);
    if (executable && executable !== stat.name) names.push(executable);
  }
  return names;
}

/** The pager among a foreground job's processes, if one is there. */
export function pagerIn(names: readonly string[] | undefined): string | undefined {
  return names?.find((name) => PAGERS.has(name));
}
