import { epochSeconds, ParsedHistoryBuilder, splitLines, utf8, withoutCr, type ParsedHistory } from './historyEntry';

const TIMESTAMP = /^#(\d+)$/;

/**
 * `~/.bash_history`: one command a line, or, when `HISTTIMEFORMAT` was set, each command after a
 * `#<epoch seconds>` line. After a timestamp, the lines up to the next one are one command
 * (that is how bash writes a multi-line command with `shopt -s lithist`); lines before the first
 * timestamp are a command each, without a time. Skipped and counted: lines that are not UTF-8,
 * a timestamp out of range, a timestamp with no command after it.
 */
export function parseBashHistory(bytes: Uint8Array): ParsedHistory {
  const parsed = new ParsedHistoryBuilder();
  let open: { startedAt: number; lines: string[] } | null = null;
  let pendingTime: { at: number; line: number } | null = null;
  const close = () => {
    if (open) {
      while (open.lines.length > 1 && open.lines.at(-1)!.trim() === '') open.lines.pop();
      parsed.entries.push({ command: open.lines.join('\n'), startedAt: open.startedAt });
    }
    open = null;
  };
  splitLines(bytes).forEach((raw, index) => {
    const lineNumber = index + 1;
    const text = utf8(raw);
    if (text === undefined) return parsed.skip(lineNumber);
    const line = withoutCr(text);
    const stamp = TIMESTAMP.exec(line);
    if (stamp) {
      close();
      if (pendingTime) parsed.skip(pendingTime.line);
      const at = epochSeconds(stamp[1]!);
      if (at === undefined) {
        pendingTime = null;
        return parsed.skip(lineNumber);
      }
      pendingTime = { at, line: lineNumber };
      return;
    }
    if (pendingTime) {
      if (line.trim() === '') return;
      open = { startedAt: pendingTime.at, lines: [line] };
      pendingTime = null;
    } else if (open) {
      open.lines.push(line);
    } else if (line.trim() !== '') {
      parsed.entries.push({ command: line });
    }
  });
  close();
  if (pendingTime) parsed.skip((pendingTime as { line: number }).line);
  return parsed.result();
}
