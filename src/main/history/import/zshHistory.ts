import { epochSeconds, ParsedHistoryBuilder, splitLines, utf8, withoutCr, type ParsedHistory } from './historyEntry';

/** zsh's Meta byte: the next byte is a special one XOR 0x20 (zsh's `metafy`). */
const META = 0x83;
const EXTENDED = /^: *(\d+):(\d+);([\s\S]*)$/;

/**
 * `~/.zsh_history`, in the extended format (`: <start>:<elapsed seconds>;<command>`, with
 * `setopt EXTENDED_HISTORY`) or the plain one (a command a line, no times); a file may mix them.
 * A line ending in a backslash goes on with the next line (zsh writes a command's newlines
 * so). The bytes are unmetafied first, the way zsh reads its own file. Skipped and counted: text
 * that is not UTF-8, an extended line with a time out of range or no command.
 */
export function parseZshHistory(bytes: Uint8Array): ParsedHistory {
  const parsed = new ParsedHistoryBuilder();
  const lines = splitLines(unmetafy(bytes));
  for (let index = 0; index < lines.length; index++) {
    const first = index + 1;
    const pieces: Uint8Array[] = [lines[index]!];
    // A continued line: drop its backslash and join with a newline, as zsh does.
    while (endsWithBackslash(pieces.at(-1)!) && index + 1 < lines.length) pieces.push(lines[++index]!);
    const decoded = pieces.map((piece) => utf8(piece));
    if (decoded.some((piece) => piece === undefined)) {
      parsed.skip(first);
      continue;
    }
    const text = (decoded as string[])
      .map((piece, at) => (at < decoded.length - 1 ? withoutCr(piece).slice(0, -1) : withoutCr(piece)))
      .join('\n');
    const extended = EXTENDED.exec(text);
    if (!extended) {
      if (text.trim() !== '') parsed.entries.push({ command: text });
      continue;
    }
    const startedAt = epochSeconds(extended[1]!);
    const command = extended[3]!;
    if (startedAt === undefined || command.trim() === '') {
      parsed.skip(first);
      continue;
    }
    parsed.entries.push({ command, startedAt, durationMs: Number(extended[2]) * 1000 });
  }
  return parsed.result();
}

function endsWithBackslash(line: Uint8Array): boolean {
  const end = line.at(-1) === 0x0d ? line.length - 2 : line.length - 1;
  return end >= 0 && line[end] === 0x5c;
}

/** Undoes zsh's metafication: Meta followed by a byte stands for that byte XOR 0x20. */
export function unmetafy(bytes: Uint8Array): Uint8Array {
  if (!bytes.includes(META)) return bytes;
  const out = new Uint8Array(bytes.length);
  let length = 0;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at]!;
    out[length++] = byte === META && at + 1 < bytes.length ? bytes[++at]! ^ 0x20 : byte;
  }
  return out.subarray(0, length);
}
