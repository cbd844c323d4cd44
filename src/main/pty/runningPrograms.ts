import { readFileSync, readdirSync } from 'node:fs';
import { foregroundGroupOf } from './processTree';

interface ProcessEntry {
  pid: number;
  name: string;
  parent: number;
  group: number;
}

function entryOf(pid: string): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp ..." — comm may hold spaces and parens.
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid: Number(pid), name, parent: Number(fields[1]), group: Number(fields[2]) };
  } catch {
    return undefined; // Gone since the directory was listed.
  }
}

function processTable(): Map<number, ProcessEntry> | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const table = new Map<number, ProcessEntry>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const process = entryOf(entry);
    if (process) table.set(process.pid, process);
  }
  return table;
}

/** The processes from just below the shell down to `pid`, outermost first; [] when `pid` is not below the shell. */
function chainBelow(shellPid: number, pid: number, table: Map<number, ProcessEntry>): ProcessEntry[] {
  const chain: ProcessEntry[] = [];
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
  const table = processTable();
  if (!table) return undefined;
  const names: string[] = [];
  const members = [...table.values()].filter((entry) => entry.group === group).sort((a, b) => a.pid - b.pid);
  for (const member of members) {
    const chain = chainBelow(shellPid, member.pid, table);
    for (const entry of chain.length > 0 ? chain : [member]) {
      if (!names.includes(entry.name)) names.push(entry.name);
    }
  }
  return names;
}
