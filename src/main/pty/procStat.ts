import { readFileSync, readdirSync } from 'node:fs';

/** What Tandem reads of a process's `/proc/<pid>/stat` (Linux). */
export interface ProcStat {
  pid: number;
  /** The name the process gives itself (comm), at most 15 characters. */
  name: string;
  parent: number;
  group: number;
  /** The foreground process group of the process's terminal (tpgid); -1 without one. */
  terminalGroup: number;
}

/** Parses one `/proc/<pid>/stat` line: "pid (comm) state ppid pgrp session tty_nr tpgid ...". */
export function parseProcStat(stat: string): ProcStat | undefined {
  // comm may hold spaces and parentheses: it ends at the last ')'.
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const fields = stat.slice(close + 2).split(' ');
  const numbers = [stat.slice(0, open).trim(), fields[1], fields[2], fields[5]].map(Number);
  if (!numbers.every(Number.isInteger)) return undefined;
  const [pid, parent, group, terminalGroup] = numbers as [number, number, number, number];
  return { pid, name: stat.slice(open + 1, close), parent, group, terminalGroup };
}

/** The stat of process `pid`, or undefined when it is gone or /proc cannot tell (not Linux). */
export function readProcStat(pid: number | string): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every process /proc lists, or undefined without /proc. */
export function listProcesses(): ProcStat[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const processes: ProcStat[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    // Undefined when it ended since the directory was listed.
    const stat = readProcStat(entry);
    if (stat) processes.push(stat);
  }
  return processes;
}
