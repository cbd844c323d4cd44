import { foregroundGroupOf } from './processTree';
import { listProcesses, type ProcStat } from './procStat';

/** The processes from just below the shell down to `pid`, outermost first; [] when `pid` is not below the shell. */
function chainBelow(shellPid: number, pid: number, table: Map<number, ProcStat>): ProcStat[] {
  const chain: ProcStat[] = [];
  for (let current = table.get(pid); current && chain.length < 64; current = table.get(current.parent)) {
    if (current.pid === shellPid) return chain;
    chain.unshift(current);
  }
  return [];
}

/**
 * What runs in the foreground of the pane whose shell is `shellPid`, by the names the
 * programs give themselves (Linux /proc): `[]` when the shell itself has the terminal, the
 * programs of the foreground job otherwise — with the ones between the shell and that job
 * (`bash` in the pane's zsh running `sleep`: bash, sleep). Undefined when /proc cannot tell
 * (not Linux). The terminal's foreground group is the shell's stat field 8 (`tpgid`), which
 * is what `tcgetpgrp` would answer.
 */
export function foregroundPrograms(shellPid: number): string[] | undefined {
  const group = foregroundGroupOf(shellPid);
  if (group === undefined) return undefined;
  if (group === shellPid) return [];
  const processes = listProcesses();
  if (!processes) return undefined;
  const table = new Map(processes.map((entry) => [entry.pid, entry]));
  const names: string[] = [];
  const members = processes.filter((entry) => entry.group === group).sort((a, b) => a.pid - b.pid);
  for (const member of members) {
    const chain = chainBelow(shellPid, member.pid, table);
    for (const entry of chain.length > 0 ? chain : [member]) {
      if (!names.includes(entry.name)) names.push(entry.name);
    }
  }
  return names;
}
