import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBashHistory } from '../../src/main/history/import/bashHistory';
import { parseFishHistory } from '../../src/main/history/import/fishHistory';
import { fillTimes } from '../../src/main/history/import/importedRecords';
import { parseZshHistory } from '../../src/main/history/import/zshHistory';

// Each shell's history format written the way the shell writes it, and read back.

const encode = (text: string) => new TextEncoder().encode(text);

/** A command as a person types it: any text, one or more lines, not blank, no line ending in a backslash. */
const command = fc
  .array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).filter((line) => !line.includes('\n') && !line.includes('\r') && !line.endsWith('\\')), { minLength: 1, maxLength: 3 })
  .map((lines) => lines.join('\n'))
  .filter((text) => text.trim() !== '' && !/^\s*$/m.test(text));
const seconds = fc.integer({ min: 0, max: 4_000_000_000 });

/** zsh's `metafy`: a byte that zsh treats as special is written as Meta and the byte XOR 0x20. */
function metafy(bytes: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (const byte of bytes) {
    if (byte === 0 || (byte >= 0x83 && byte <= 0xa2)) out.push(0x83, byte ^ 0x20);
    else out.push(byte);
  }
  return Uint8Array.from(out);
}

describe('zsh', () => {
  it('reads back what zsh writes in the extended format: newlines as backslash-newline, bytes metafied', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(command.filter((text) => !text.includes('\\\n')), seconds, fc.integer({ min: 0, max: 10_000 })), { maxLength: 8 }), (entries) => {
        const file = entries.map(([text, start, elapsed]) => `: ${start}:${elapsed};${text.replaceAll('\n', '\\\n')}\n`).join('');
        const parsed = parseZshHistory(metafy(encode(file)));
        expect(parsed.skipped).toBe(0);
        expect(parsed.entries).toEqual(entries.map(([text, start, elapsed]) => ({ command: text, startedAt: start * 1000, durationMs: elapsed * 1000 })));
      }),
    );
  });

  it('reads the plain format as one command a line, without times', () => {
    const parsed = parseZshHistory(encode('ls\n: not extended\ncd /tmp\n'));
    expect(parsed.entries).toEqual([{ command: 'ls' }, { command: ': not extended' }, { command: 'cd /tmp' }]);
  });
});

describe('fish', () => {
  it('reads back what fish writes: backslashes and newlines escaped, when and paths', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(command, seconds, fc.array(fc.constantFrom('/tmp/a', 'src/x.ts'), { maxLength: 2 })), { maxLength: 8 }), (entries) => {
        const file = entries
          .map(([text, when, paths]) => `- cmd: ${text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n')}\n  when: ${when}\n${paths.length ? `  paths:\n${paths.map((path) => `    - ${path}\n`).join('')}` : ''}`)
          .join('');
        const parsed = parseFishHistory(encode(file));
        expect(parsed.skipped).toBe(0);
        expect(parsed.entries).toEqual(entries.map(([text, when]) => ({ command: text, startedAt: when * 1000 })));
      }),
    );
  });

  it('keeps a command holding a line or paragraph separator, which fish writes unescaped', () => {
    const parsed = parseFishHistory(encode('- cmd: echo a\u2028b\u2029c\n  when: 5\n'));
    expect(parsed.skipped).toBe(0);
    expect(parsed.entries).toEqual([{ command: 'echo a\u2028b\u2029c', startedAt: 5000 }]);
  });
});

describe('bash', () => {
  it('reads back a HISTTIMEFORMAT file, a multi-line command being the lines up to the next timestamp', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(command.filter((text) => !/^#\d+$/m.test(text)), seconds), { maxLength: 8 }), (entries) => {
        const file = entries.map(([text, when]) => `#${when}\n${text}\n`).join('');
        const parsed = parseBashHistory(encode(file));
        expect(parsed.skipped).toBe(0);
        expect(parsed.entries).toEqual(entries.map(([text, when]) => ({ command: text, startedAt: when * 1000 })));
      }),
    );
  });

  it('never throws on arbitrary bytes, and counts what it skips', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        for (const parse of [parseBashHistory, parseZshHistory, parseFishHistory]) {
          const parsed = parse(bytes);
          expect(parsed.skipped).toBeGreaterThanOrEqual(0);
          expect(parsed.skipped > 0).toBe(parsed.firstSkipped !== undefined);
        }
      }),
    );
  });
});

describe('times for entries without one', () => {
  it('keeps the file order: just before the next known time, or the file’s last write', () => {
    expect(fillTimes([{ command: 'a' }, { command: 'b', startedAt: 5_000 }, { command: 'c' }, { command: 'd' }], 9_000)).toEqual([4_999, 5_000, 8_998, 8_999]);
  });
});
