import { epochSeconds, ParsedHistoryBuilder, splitLines, utf8, withoutCr, type HistoryEntry, type ParsedHistory } from './historyEntry';

/** `s`: a command may hold U+2028 or U+2029, which `.` alone does not match (fish writes them raw). */
const COMMAND = /^- cmd: ?(.*)$/s;
const WHEN = /^ {2}when: *(\S*)$/;
const PATHS = /^ {2}paths:\s*$/;
const PATH_ITEM = /^ {4}- /;

/**
 * fish's `fish_history`: YAML-like entries of `- cmd: <command>`, `  when: <epoch seconds>` and
 * `  paths:` with `    - <path>` items (the files the command named, which a block record has
 * no field for: they are read and left out). In the command, `\\` is a backslash and `\n` a
 * newline, as fish escapes them. Skipped and counted: lines that are not UTF-8 or not one of
 * those shapes, an empty command, a `when` that is not a time (the entry is kept without one).
 */
export function parseFishHistory(bytes: Uint8Array): ParsedHistory {
  const parsed = new ParsedHistoryBuilder();
  let entry: HistoryEntry | null = null;
  let inPaths = false;
  splitLines(bytes).forEach((raw, index) => {
    const lineNumber = index + 1;
    const text = utf8(raw);
    if (text === undefined) return parsed.skip(lineNumber);
    const line = withoutCr(text);
    const command = COMMAND.exec(line);
    if (command) {
      inPaths = false;
      const unescaped = unescapeFish(command[1]!);
      entry = unescaped.trim() === '' ? null : { command: unescaped };
      if (entry) parsed.entries.push(entry);
      else parsed.skip(lineNumber);
      return;
    }
    if (line.trim() === '' || !entry) {
      if (line.trim() !== '') parsed.skip(lineNumber);
      return;
    }
    const when = WHEN.exec(line);
    if (when) {
      inPaths = false;
      const at = epochSeconds(when[1]!);
      if (at === undefined) parsed.skip(lineNumber);
      else entry.startedAt = at;
    } else if (PATHS.test(line)) inPaths = true;
    else if (!(inPaths && PATH_ITEM.test(line))) parsed.skip(lineNumber);
  });
  return parsed.result();
}

/** fish's history escaping: `\\` → `\`, `\n` → newline; any other backslash is itself. */
export function unescapeFish(text: string): string {
  return text.replace(/\\([\\n])/g, (_match, char: string) => (char === 'n' ? '\n' : '\\'));
}
