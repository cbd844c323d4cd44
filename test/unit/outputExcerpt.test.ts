import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cutLineMiddle,
  errorLines,
  findErrorLines,
  formatBytes,
  headGapTail,
  headTail,
  splitLines,
  summarizeOutput,
} from '../../src/main/context/outputExcerpt';

/** The marker line between head and tail, parsed; undefined when there is none. */
const MARKER_LINE = /^… \[([\d,]+) lines? \(([\d.]+ (?:B|KB|MB|GB))\) omitted; ([\d,]+) lines? \(([\d.]+ (?:B|KB|MB|GB))\) in total\] …$/;
const INLINE_MARKER = /… \[[\d,]+ of [\d,]+ chars omitted from this line\] …/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const num = (s: string): number => Number(s.replace(/,/g, ''));

/** Lines as the test understands them: \r\n is one break, a final break ends the last line. */
function referenceLines(text: string): string[] {
  if (text === '') return [];
  return text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
}

function parseHeadTail(output: string) {
  const lines = output.split('\n');
  const markerIndexes = lines.flatMap((line, i) => (MARKER_LINE.test(line) ? [i] : []));
  const marker = markerIndexes.length === 1 ? MARKER_LINE.exec(lines[markerIndexes[0] as number] as string) : null;
  const kept = lines.filter((_, i) => !markerIndexes.includes(i));
  return {
    markerCount: markerIndexes.length,
    omittedLines: marker ? num(marker[1] as string) : 0,
    totalLinesStated: marker ? num(marker[3] as string) : undefined,
    kept,
    content: kept.join('\n').replace(INLINE_MARKER, ''),
  };
}

const lineArb = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
);
const textArb = fc.oneof(
  fc.array(lineArb, { maxLength: 80 }).map((lines) => lines.join('\n')),
  fc.array(lineArb, { maxLength: 40 }).map((lines) => lines.join('\r\n')),
  fc.string({ unit: 'binary', maxLength: 500 }),
);

describe('splitLines', () => {
  it('treats \\r\\n as one break and a final break as the end of the last line', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a')).toEqual(['a']);
    expect(splitLines('a\n')).toEqual(['a']);
    expect(splitLines('a\r\nb\r\n')).toEqual(['a', 'b']);
    expect(splitLines('a\n\nb')).toEqual(['a', '', 'b']);
    expect(splitLines('\n')).toEqual(['']);
  });
});

describe('headTail', () => {
  it('keeps the first ~40% and last ~60% of the lines with one marker stating exact totals', () => {
    const lines = Array.from({ length: 1400 }, (_, i) => `line ${i + 1}: ${'x'.repeat(40)}`);
    const text = lines.join('\n');
    const result = headTail(text, { maxLines: 10, maxChars: 100_000 });
    expect(result.truncated).toBe(true);
    expect(result.totalLines).toBe(1400);
    expect(result.totalChars).toBe(text.length);
    const out = result.text.split('\n');
    expect(out.slice(0, 4)).toEqual(lines.slice(0, 4));
    expect(out.slice(5)).toEqual(lines.slice(-6));
    const omittedBytes = Buffer.byteLength(lines.slice(4, 1394).join('\n') + '\n');
    const totalBytes = Buffer.byteLength(text);
    expect(out[4]).toBe(`… [1,390 lines (${formatBytes(omittedBytes)}) omitted; 1,400 lines (${formatBytes(totalBytes)}) in total] …`);
    expect(formatBytes(omittedBytes)).toMatch(/^\d+\.\d KB$/);
  });

  it('cuts by characters too, never past the budget, and says so', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `${i}`.padStart(3, '0') + 'y'.repeat(96));
    const result = headTail(lines.join('\n'), { maxLines: 1000, maxChars: 1000 });
    const parsed = parseHeadTail(result.text);
    expect(result.truncated).toBe(true);
    expect(parsed.markerCount).toBe(1);
    expect(parsed.content.length).toBeLessThanOrEqual(1000);
    expect(parsed.kept.length + parsed.omittedLines).toBe(50);
    expect(parsed.kept[0]).toBe(lines[0]);
    expect(parsed.kept.at(-1)).toBe(lines[49]);
  });

  it('cuts a single very long line in its middle with a marker', () => {
    const line = 'A'.repeat(10) + 'm'.repeat(50_000) + 'Z'.repeat(10);
    const result = headTail(line, { maxLines: 200, maxChars: 2_000 });
    expect(result.truncated).toBe(true);
    expect(result.text.startsWith('A'.repeat(10))).toBe(true);
    expect(result.text.endsWith('Z'.repeat(10))).toBe(true);
    const marker = /… \[([\d,]+) of ([\d,]+) chars omitted from this line\] …/.exec(result.text);
    expect(marker).not.toBeNull();
    expect(num(marker?.[2] ?? '')).toBe(line.length);
    const kept = result.text.replace(INLINE_MARKER, '').length;
    expect(kept + num(marker?.[1] ?? '')).toBe(line.length);
    expect(kept).toBeLessThanOrEqual(2_000);
  });

  it('never splits a surrogate pair when it cuts a line', () => {
    for (const maxChars of [7, 8, 9, 10, 101]) {
      const result = headTail('🙂'.repeat(500), { maxLines: 10, maxChars });
      expect(result.truncated).toBe(true);
      expect(LONE_SURROGATE.test(result.text)).toBe(false);
    }
  });

  it('counts \\r\\n as one line break', () => {
    const text = Array.from({ length: 30 }, (_, i) => `r${i}`).join('\r\n');
    const result = headTail(text, { maxLines: 5, maxChars: 10_000 });
    expect(result.totalLines).toBe(30);
    expect(result.text).not.toContain('\r');
    expect(parseHeadTail(result.text).omittedLines).toBe(25);
  });

  it('property: text within both caps comes back unchanged', () => {
    fc.assert(
      fc.property(textArb, fc.nat(50), fc.nat(50), (text, extraLines, extraChars) => {
        const maxLines = referenceLines(text).length + extraLines || 1;
        const maxChars = text.length + extraChars || 1;
        const result = headTail(text, { maxLines, maxChars });
        expect(result.truncated).toBe(false);
        expect(result.text).toBe(text);
      }),
    );
  });

  it('property: the caps hold except for markers, and the stated counts add up', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 600 }), (text, maxLines, maxChars) => {
        const result = headTail(text, { maxLines, maxChars });
        const total = referenceLines(text).length;
        expect(result.totalLines).toBe(total);
        const parsed = parseHeadTail(result.text);
        expect(parsed.markerCount).toBeLessThanOrEqual(1);
        if (result.text === text) return;
        expect(parsed.kept.length).toBeLessThanOrEqual(maxLines);
        expect(parsed.content.length).toBeLessThanOrEqual(maxChars);
        if (parsed.markerCount === 1) {
          expect(parsed.totalLinesStated).toBe(total);
          expect(parsed.kept.length + parsed.omittedLines).toBe(total);
          expect(result.truncated).toBe(true);
        }
        expect(LONE_SURROGATE.test(result.text)).toBe(LONE_SURROGATE.test(text));
      }),
      { numRuns: 300 },
    );
  });

  it('property: kept lines are the input head and tail, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }).filter((s) => !s.includes('\n') && !s.includes('\r')), { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 20 }), (lines, maxLines) => {
        const result = headTail(lines.join('\n'), { maxLines, maxChars: 1_000_000 });
        const out = result.text.split('\n');
        const markerAt = out.findIndex((line) => MARKER_LINE.test(line));
        if (markerAt === -1) {
          expect(result.text).toBe(lines.join('\n'));
          return;
        }
        const head = out.slice(0, markerAt);
        const tail = out.slice(markerAt + 1);
        const all = referenceLines(lines.join('\n'));
        expect(head).toEqual(all.slice(0, head.length));
        expect(tail).toEqual(all.slice(all.length - tail.length));
        expect(head.length + tail.length).toBe(maxLines);
        expect(head.length).toBe(Math.floor(maxLines * 0.4));
      }),
    );
  });

  it('property: never throws, whatever the text and options', () => {
    const option = fc.oneof(fc.integer({ min: -5, max: 50 }), fc.constantFrom(0, Number.NaN, Number.POSITIVE_INFINITY, -Infinity, 0.5));
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), option, option, (text, maxLines, maxChars) => {
        const result = headTail(text, { maxLines, maxChars });
        expect(typeof result.text).toBe('string');
      }),
    );
  });
});

describe('headGapTail', () => {
  const numbers = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, n) => String(from + n)).join('\n');
  const printed = { lines: 200_000, bytes: Buffer.byteLength(`${numbers(1, 200_000)}\n`) };

  it('shows how the output began, then its end, with what the whole printed in the marker', () => {
    const result = headGapTail(numbers(1, 100), numbers(190_000, 200_000), printed, { maxLines: 10, maxChars: 1_000 });
    expect(result.text.split('\n')).toEqual(['1', '2', '3', '4', '… [199,990 lines (1.2 MB) omitted; 200,000 lines (1.2 MB) printed in total] …', '199995', '199996', '199997', '199998', '199999', '200000']);
    expect(result).toMatchObject({ totalLines: 200_000, truncated: true });
  });

  it('falls back to the end alone when head and end would overlap', () => {
    const small = { lines: 12, bytes: Buffer.byteLength(`${numbers(1, 12)}\n`) };
    const result = headGapTail(numbers(1, 12), numbers(3, 12), small, { maxLines: 50, maxChars: 1_000 });
    expect(result.text).toBe(numbers(3, 12));
  });
});

describe('cutLineMiddle', () => {
  it('returns short lines unchanged and cuts long ones 40/60 around a marker', () => {
    expect(cutLineMiddle('short', 10)).toEqual({ text: 'short', keptChars: 5 });
    const cut = cutLineMiddle('0123456789'.repeat(10), 10);
    expect(cut.text).toBe('0123… [90 of 100 chars omitted from this line] …456789');
    expect(cut.keptChars).toBe(10);
  });
});

describe('findErrorLines', () => {
  it('flags error-looking lines and not success summaries', () => {
    const lines = [
      'src/app.ts:12:5: error: expected ";"', // 0
      'Compiled with 0 errors and no warnings', // 1
      'Tests: 3 passed, 0 failed', // 2
      'npm ERR! code ELIFECYCLE', // 3
      "Error: ENOENT: no such file or directory, open 'x'", // 4
      'warning: unused variable `x`', // 5
      'all good', // 6
      'FAIL src/a.test.ts', // 7
      'bash: foo: command not found', // 8
      'TypeError: undefined is not a function', // 9
      'error[E0308]: mismatched types', // 10
      'Found 3 errors in 2 files.', // 11
      'thread main panicked at src/main.rs:2:5', // 12
      'cp: cannot open x: Permission denied', // 13
      'npm WARN deprecated foo@1.0.0', // 14
    ];
    const found = findErrorLines(lines.join('\n'));
    const errors = found.filter((m) => m.severity === 'error').map((m) => m.line);
    const warnings = found.filter((m) => m.severity === 'warning').map((m) => m.line);
    expect(errors).toEqual([0, 3, 4, 7, 8, 9, 10, 11, 12, 13]);
    expect(warnings).toEqual([5, 14]);
  });

  it('flags a line of each pattern, also when the one-test pre-check is all that could let it through', () => {
    const errorsOnly = [
      'connect ECONNREFUSED 127.0.0.1:5432',
      'listen EADDRINUSE: address already in use :::3000',
      'Segmentation fault',
      'Aborted (core dumped)',
      'Unhandled promise rejection',
      '  ✗ renders the header',
      'code: ERR_REQUIRE_ESM',
      'java.lang.NullPointerException at Foo.bar',
      'fatal: not a git repository',
      'Traceback (most recent call last):',
      'Permission denied (publickey).',
      'sh: 1: vite: not found',
      'Assertion `x > 0` failed.',
      'goroutine 1 [running]: panic: boom',
    ];
    const found = findErrorLines(errorsOnly.join('\n'));
    expect(found.map((m) => m.line)).toEqual(errorsOnly.map((_, i) => i));
    expect(found.every((m) => m.severity === 'error')).toBe(true);
    const warnings = findErrorLines(['(node:1) DeprecationWarning: Buffer() is deprecated', 'WARN  skipping optional dependency'].join('\n'));
    expect(warnings).toEqual([
      { line: 0, severity: 'warning' },
      { line: 1, severity: 'warning' },
    ]);
  });

  it('adds the last frame and the exception line of a Python traceback', () => {
    const text = [
      'starting',
      'Traceback (most recent call last):',
      '  File "/app/main.py", line 10, in <module>',
      '    main()',
      '  File "/app/main.py", line 6, in main',
      '    return lookup["x"]',
      'KeyNotThere: \'x\'',
      'done',
    ].join('\n');
    const lines = findErrorLines(text).map((m) => m.line);
    expect(lines).toEqual([1, 4, 5, 6]);
  });
});

describe('errorLines', () => {
  const build = (n: number, at: Record<number, string>) => Array.from({ length: n }, (_, i) => at[i] ?? `progress ${i}`).join('\n');

  it('says "1 line that looks like errors": the words agree with the count', () => {
    const header = errorLines(build(100, { 40: 'error: missing semicolon' }), { maxLines: 50 }).text.split('\n')[0];
    expect(header).toContain('found 1 line that looks like errors; showing it with 1 line of context');
  });

  it('keeps error lines with one line of context, the last lines, and … between ranges', () => {
    const text = build(500, { 100: 'src/a.c:3:7: error: unknown type name', 300: 'ld: fatal: symbol not found' });
    const result = errorLines(text, { maxLines: 50 });
    const [header, ...body] = result.text.split('\n');
    expect(header).toBe(
      '[11 of 500 lines kept; found 2 lines that look like errors; showing them with 1 line of context and the last 5 lines]',
    );
    expect(body).toEqual([
      '… [99 lines omitted] …',
      'progress 99',
      'src/a.c:3:7: error: unknown type name',
      'progress 101',
      '… [197 lines omitted] …',
      'progress 299',
      'ld: fatal: symbol not found',
      'progress 301',
      '… [193 lines omitted] …',
      'progress 495',
      'progress 496',
      'progress 497',
      'progress 498',
      'progress 499',
    ]);
    expect(result).toMatchObject({ totalLines: 500, keptLines: 11, errorCount: 2, warningCount: 0 });
  });

  it('merges adjacent ranges and keeps the last lines even with no errors', () => {
    const clean = errorLines(build(40, {}), { maxLines: 20 });
    expect(clean.errorCount).toBe(0);
    expect(clean.text.split('\n')).toEqual([
      '[5 of 40 lines kept; no lines look like errors; the last 5 lines]',
      '… [35 lines omitted] …',
      'progress 35',
      'progress 36',
      'progress 37',
      'progress 38',
      'progress 39',
    ]);
    const adjacent = errorLines(build(20, { 5: 'Error one', 6: 'Error two' }), { maxLines: 20 });
    const body = adjacent.text.split('\n').slice(1);
    expect(body.slice(0, 5)).toEqual(['… [4 lines omitted] …', 'progress 4', 'Error one', 'Error two', 'progress 7']);
  });

  it('prefers errors over warnings, and the first and last errors, when the budget is small', () => {
    const at: Record<number, string> = {};
    for (let i = 10; i < 90; i += 10) at[i] = `warning: w${i}`;
    at[15] = 'error: first';
    at[55] = 'error: middle';
    at[85] = 'error: last';
    const result = errorLines(build(200, at), { maxLines: 12 });
    expect(result.keptLines).toBe(12);
    expect(result).toMatchObject({ errorCount: 3, warningCount: 8 });
    // All errors first (the first and last with context), then warnings while the budget lasts.
    expect(result.text).toContain('progress 14\nerror: first\nprogress 16');
    expect(result.text).toContain('progress 84\nerror: last\nprogress 86');
    expect(result.text).toContain('error: middle');
    const warningsShown = result.text.split('\n').filter((line) => line.startsWith('warning:')).length;
    expect(warningsShown).toBeLessThan(8);
    expect(result.text).toMatch(/showing \d+ of them/);
  });

  it('says so for empty output', () => {
    expect(errorLines('', { maxLines: 10 }).text).toBe('[no output]');
  });

  it('property: keeps at most maxLines input lines, in input order, with correct gap counts', () => {
    const line = fc.oneof(fc.constantFrom('ok', 'Error: bad', 'warning: meh', 'FAIL x', 'fine', ''), fc.string({ maxLength: 20 }));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 120 }), fc.integer({ min: 1, max: 30 }), (lines, maxLines) => {
        const cleanLines = lines.map((l) => l.replace(/[\r\n]/g, ' '));
        const text = cleanLines.join('\n');
        const result = errorLines(text, { maxLines });
        const all = referenceLines(text);
        if (all.length === 0) {
          expect(result.text).toBe('[no output]');
          return;
        }
        const [header, ...body] = result.text.split('\n');
        expect(header).toMatch(new RegExp(`^\\[${result.keptLines} of [\\d,]+ lines? kept`));
        let cursor = 0;
        let kept = 0;
        for (const row of body) {
          const gap = /^… \[([\d,]+) lines? omitted\] …$/.exec(row);
          if (gap) {
            cursor += num(gap[1] as string);
            continue;
          }
          expect(row).toBe(cutLineMiddle(all[cursor] as string, 500).text);
          cursor++;
          kept++;
        }
        expect(cursor).toBe(all.length);
        expect(kept).toBe(result.keptLines);
        expect(kept).toBeLessThanOrEqual(maxLines);
      }),
    );
  });
});

describe('summarizeOutput (local filtering)', () => {
  it('shows short output whole', () => {
    expect(summarizeOutput('a\nb\nc')).toBe('3 lines:\na\nb\nc');
    expect(summarizeOutput('')).toBe('(no output)');
  });

  it('keeps the first 5 lines, errors and warnings with a line of context, and the last 10, every gap stated', () => {
    const lines = Array.from({ length: 100 }, (_, i) => (i === 42 ? 'Error: disk full' : i === 60 ? 'warning: low memory' : `step ${i}`));
    const summary = summarizeOutput(lines.join('\n'));
    expect(summary.split('\n')).toEqual([
      '100 lines; kept the first 5, 1 of 1 line that looks like errors and 1 of 1 warning line (with context), and the last 10:',
      'step 0',
      'step 1',
      'step 2',
      'step 3',
      'step 4',
      '… [36 lines omitted] …',
      'step 41',
      'Error: disk full',
      'step 43',
      '… [15 lines omitted] …',
      'step 59',
      'warning: low memory',
      'step 61',
      '… [28 lines omitted] …',
      ...Array.from({ length: 10 }, (_, i) => `step ${90 + i}`),
    ]);
  });

  it('keeps errors before warnings, the first and last errors first, within its line budget', () => {
    const lines = Array.from({ length: 2_000 }, (_, i) => (i % 10 === 5 ? `error: e${i}` : i % 10 === 7 ? `warning: w${i}` : `ok ${i}`));
    const summary = summarizeOutput(lines.join('\n'));
    expect(summary.split('\n')[0]).toBe('2,000 lines; kept the first 5, 16 of 200 lines that look like errors and 1 of 200 warning lines (with context), and the last 10:');
    expect(summary).toContain('error: e15');
    expect(summary).toContain('error: e1985');
    // The warning kept is the one among the last lines: the budget went to errors.
    expect(summary).not.toContain('warning: w1007');
    expect(summary).toContain('warning: w1997');
    expect(summary.split('\n').length).toBeLessThan(5 + 45 + 10 + 30);
  });

  it('says so when nothing looks like an error', () => {
    const summary = summarizeOutput(Array.from({ length: 60 }, (_, i) => `row ${i}`).join('\n'));
    expect(summary.split('\n')[0]).toBe('60 lines; kept the first 5, no lines look like errors or warnings, and the last 10:');
    expect(summary).toContain('… [45 lines omitted] …');
  });
});

