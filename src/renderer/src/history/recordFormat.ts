import type { HistoryEntry } from '../../../shared/history';
import { formatDuration } from '../blocks/blockStatus';
import { displayPath } from '../statusbar/displayPath';

/** A command on one row: its line breaks shown as ⏎. */
export function commandLine(command: string): string {
  return command.replace(/\r?\n/g, ' ⏎ ');
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** When, as a person says it: `just now`, `5 min ago`, `3 h ago`, `yesterday`, `4 days ago`, then the date. */
export function relativeTime(at: number, now: Date): string {
  const ago = now.getTime() - at;
  if (ago < 45_000) return 'just now';
  if (ago < HOUR) return `${Math.max(1, Math.round(ago / MINUTE))} min ago`;
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  if (at >= startOfToday) return `${Math.floor(ago / HOUR)} h ago`;
  const days = Math.ceil((startOfToday - at) / DAY);
  if (days === 1) return 'yesterday';
  if (days < 14) return `${days} days ago`;
  return localDate(new Date(at));
}

/** The exact local time, for the tooltip: `2026-11-29 14:03:07`. */
export function exactTime(at: number): string {
  const date = new Date(at);
  return `${localDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function localDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const pad = (value: number) => String(value).padStart(2, '0');

export function durationText(durationMs: number | null): string {
  return durationMs === null ? '' : formatDuration(durationMs);
}

export type ExitStatus = 'success' | 'failure' | 'unknown';

export function exitStatus(entry: Pick<HistoryEntry, 'exitCode'>): ExitStatus {
  if (entry.exitCode === null) return 'unknown';
  return entry.exitCode === 0 ? 'success' : 'failure';
}

export function exitText(entry: Pick<HistoryEntry, 'exitCode'>): string {
  return entry.exitCode === null ? 'exit ?' : `exit ${entry.exitCode}`;
}

const AUTHOR_LABELS: Record<HistoryEntry['author'], string> = {
  you: 'you',
  'agent-step': 'agent step',
  'auto-run': 'auto run',
  'child-agent': 'child agent',
};

/** Who ran it; imported shell history says so (an atuin record an agent ran says both). */
export function whoText(entry: Pick<HistoryEntry, 'author' | 'imported'>): string {
  if (!entry.imported) return AUTHOR_LABELS[entry.author];
  return entry.author === 'you' ? 'imported' : `imported · ${AUTHOR_LABELS[entry.author]}`;
}

/** Where it ran, `~` for the home directory (`home` is '' for another host's record: this one's says nothing there); `?` when unknown. */
export function cwdText(cwd: string | null, home: string): string {
  return cwd ? displayPath(cwd, home) : '?';
}

/** The preview's heading lines: host, shell, branch, and how the gate decided an agent's step. */
export function detailLines(entry: HistoryEntry): string[] {
  const lines = [`${entry.otherHost ? `on ${entry.host}` : entry.host}${entry.shell ? ` · ${entry.shell}` : ''}${entry.gitBranch ? ` · ${entry.gitBranch}` : ''}`];
  if (entry.decision) lines.push(`gate: ${entry.decision}${entry.rule ? ` (${entry.rule})` : ''}`);
  return lines;
}
