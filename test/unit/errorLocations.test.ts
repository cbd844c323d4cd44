import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findErrorLines } from '../../src/main/context/errorLineDetection';
import { errorLines } from '../../src/main/context/errorLinesExcerpt';
import { isLocationLine, LOCATION_WINDOW } from '../../src/main/context/locationLines';
import { summarizeOutput } from '../../src/main/context/outputSummary';
import { splitLines } from '../../src/main/context/outputLines';
import { blockHasErrors } from '../../src/main/context/standingContext';

/** Real outputs of test runners and compilers (paths moved under /home/ann), see test/fixtures/outputs. */
function fixture(name: string): string {
  return readFileSync(join(__dirname, '../fixtures/outputs', name), 'utf8');
}

const PASSING = ['node-test-pass.txt', 'vitest-pass.txt', 'cargo-pass.txt', 'pytest-pass.txt', 'go-test-pass.txt'];
const FAILING = ['node-test-fail.txt', 'vitest-fail.txt', 'jest-fail.txt', 'cargo-fail.txt', 'cargo-build-error.txt', 'pytest-assert.txt', 'go-test-fail.txt'];

describe('zero-count summaries are not errors', () => {
  it.each(PASSING)('a passing run (%s) has no error lines', (name) => {
    const text = fixture(name);
    expect(findErrorLines(text).filter((m) => m.severity === 'error').map((m) => splitLines(text)[m.line])).toEqual([]);
    expect(blockHasErrors({ exitCode: 0 }, text)).toBe(false);
  });

  it.each(FAILING)('a failing run (%s) still has error lines', (name) => {
    expect(blockHasErrors({ exitCode: 0 }, fixture(name))).toBe(true);
  });

  it.each(['ℹ fail 0', '# fail 0', 'fail 0', '0 failed', 'Tests: 12 passed, 0 failed', 'errors: 0', '0 errors', '✓ 12 tests, 0 failures', 'Failures: 0, Errors: 0', 'FAILED=0', 'warnings 0'])(
    '"%s" is no error and no warning',
    (line) => {
      expect(findErrorLines(line)).toEqual([]);
    },
  );

  it.each(['ℹ fail 1', '# fail 2', 'errors: 3', '1 failed', 'Error 0x80070005', 'failed 0.5% of requests', 'error 0: disk full'])('"%s" is still an error', (line) => {
    expect(findErrorLines(line).map((m) => m.severity)).toEqual(['error']);
  });

  it('property: a count after fail/failed/errors is an error exactly when it is not 0', () => {
    fc.assert(
      fc.property(fc.constantFrom('fail', 'failed', 'failures', 'errors', 'error'), fc.constantFrom(' ', ': ', '= ', '  '), fc.nat(5000), fc.constantFrom('', 'ℹ ', '# ', 'Tests: 3 passed, '), (word, separator, count, prefix) => {
        const found = findErrorLines(`${prefix}${word}${separator}${count}`);
        expect(found.length > 0).toBe(count !== 0);
      }),
    );
  });
});

describe('location lines stay with their error', () => {
  const kept = (name: string, maxLines = 25) => errorLines(fixture(name), { maxLines }).text;

  it("node's test runner: the `at … test/add.test.js:6:10` frame, not only node's internals", () => {
    const text = kept('node-test-fail.txt');
    expect(text).toContain('at TestContext.<anonymous> (/home/ann/src/calc/test/add.test.js:6:10)');
    expect(text).toContain('where they happened');
  });

  it("vitest's `❯ test/add.test.js:5:21`", () => {
    expect(kept('vitest-fail.txt')).toContain(' ❯ test/add.test.js:5:21');
  });

  it("jest's `at Object.<anonymous> (src/auth/login.test.ts:42:24)`, 14 lines below the FAIL line", () => {
    expect(kept('jest-fail.txt', 12)).toContain('at Object.<anonymous> (src/auth/login.test.ts:42:24)');
  });

  it("Rust's `--> src/lib.rs:2:7` and Go's `add_test.go:12:`", () => {
    expect(kept('cargo-build-error.txt', 8)).toContain(' --> src/lib.rs:2:7');
    expect(kept('go-test-fail.txt', 6)).toContain('    add_test.go:12: add(1, 3) = 4, want 5');
  });

  it('a Python frame after a logged error', () => {
    const text = ['ERROR request failed', 'Traceback is below', 'more', '  File "/srv/app/views.py", line 42, in index', 'ok', ...Array.from({ length: 30 }, (_, i) => `line ${i}`)].join('\n');
    expect(findErrorLines(text)[0]).toMatchObject({ line: 0, severity: 'error', locations: [3] });
    expect(errorLines(text, { maxLines: 10 }).text).toContain('File "/srv/app/views.py", line 42, in index');
  });

  it('the local summary of a long failing run keeps the frame too', () => {
    const long = `${Array.from({ length: 60 }, (_, i) => `✔ test ${i} (1ms)`).join('\n')}\n${fixture('node-test-fail.txt')}`;
    expect(summarizeOutput(long)).toContain('at TestContext.<anonymous> (/home/ann/src/calc/test/add.test.js:6:10)');
  });

  it.each([
    ['    at TestContext.<anonymous> (/x/test/add.test.js:6:10)', true],
    ['    at node:internal/process/task_queues:140:7', true],
    ['             at ./src/lib.rs:11:9', true],
    ['  File "x.py", line 3, in <module>', true],
    [' --> src/lib.rs:2:7', true],
    [' ❯ test/add.test.js:5:21', true],
    ['    add_test.go:12: got 4', true],
    ['src/a.c:3:5: error: expected', true],
    ['at the end of the day', false],
    ['4 !== 5', false],
    ['see http://example.com:8080/x', false],
    ['Time: 12:30:45', false],
  ] as const)('isLocationLine(%j) is %s', (line, expected) => {
    expect(isLocationLine(line)).toBe(expected);
  });

  it('property: locations are location lines after their error, within the window, never errors themselves', () => {
    const lineArb = fc.oneof(
      fc.constantFrom('Error: boom', 'FAIL x', 'ok', '', '    at f (src/a.js:1:2)', '    at node:internal/x:1:2', ' --> src/lib.rs:1:1', 'warning: w', '  File "a.py", line 1'),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 80 }), (lines) => {
        const matches = findErrorLines(lines.join('\n'));
        const errors = new Set(matches.filter((m) => m.severity === 'error').map((m) => m.line));
        for (const match of matches) {
          for (const at of match.locations ?? []) {
            expect(match.severity).toBe('error');
            expect(at).toBeGreaterThan(match.line);
            expect(at).toBeLessThanOrEqual(match.line + LOCATION_WINDOW);
            expect(isLocationLine(lines[at] ?? '')).toBe(true);
            expect(errors.has(at)).toBe(false);
          }
        }
      }),
    );
  });
});
