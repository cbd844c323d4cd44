/** One command as a shell's history file knows it, before it becomes a block record. */
export interface HistoryEntry {
  command: string;
  /** When it started (ms since the epoch), if the format recorded it. */
  startedAt?: number;
  durationMs?: number;
  exitCode?: number;
  cwd?: string;
  host?: string;
  session?: string;
  shell?: string;
  /** Whether an agent rather than a person ran it (atuin records this). */
  byAgent?: boolean;
  /** What identifies the entry in its source when the source has ids (atuin's uuid). */
  sourceId?: string;
}

/** What a parser made of a history file: the entries in file order and the lines it could not read. */
export interface ParsedHistory {
  entries: HistoryEntry[];
  skipped: number;
  /** 1-based line (or row) of the first entry that was skipped. */
  firstSkipped?: number;
}

/** Collects a parser's entries and its skipped lines. */
export class ParsedHistoryBuilder {
  readonly entries: HistoryEntry[] = [];
  skipped = 0;
  firstSkipped: number | undefined;

  skip(line: number): void {
    this.skipped++;
    this.firstSkipped ??= line;
  }

  result(): ParsedHistory {
    return this.firstSkipped === undefined
      ? { entries: this.entries, skipped: this.skipped }
      : { entries: this.entries, skipped: this.skipped, firstSkipped: this.firstSkipped };
  }
}

/** Seconds since the epoch as written in a history file, in ms; undefined when not a plausible time (before 1970 or after 9999). */
export function epochSeconds(text: string): number | undefined {
  if (!/^\d{1,12}$/.test(text)) return undefined;
  const seconds = Number(text);
  return seconds <= 253_402_300_799 ? seconds * 1000 : undefined;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of bytes that are valid UTF-8, else undefined (the caller counts the line as skipped). */
export function utf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Splits bytes at each LF; a final line without one is a line too, an empty tail is not. */
export function splitLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, at));
    start = at + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

/** Drops one trailing CR (a file edited on Windows). */
export function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
