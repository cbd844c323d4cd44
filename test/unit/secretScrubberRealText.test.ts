/**
 * The secret scrubber on real text of this project: the first megabytes of `git log -p`, every
 * markdown file in the repository, and test logs given in `TANDEM_SCRUB_LOGS` (files, separated
 * by the path delimiter: the saved output of a test run, say). None of it holds a real secret,
 * so every line altered is a false positive; the test prints each one and allows at most 0.5%
 * (issue 26). Without git history (an exported tarball) the git part is skipped. The scrubber's
 * own fixtures and tests are left out: they are secret-shaped on purpose and measured by
 * secretScrubberCorpus.test.ts and secretScrubberNegatives.test.ts.
 *
 *   npx vitest run test/unit/secretScrubberRealText.test.ts > /tmp/vitest.log
 *   TANDEM_SCRUB_LOGS=/tmp/vitest.log npx vitest run test/unit/secretScrubberRealText.test.ts
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scrubSecrets } from '../../src/main/safety/secretScrubber';
import { alteredLines } from '../fixtures/secrets/alteredLines';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GIT_LOG_BYTES = 8 * 1024 * 1024;
const ALTERED_LIMIT = 0.005;
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'out', 'dist', 'release']);
/** Text made secret-shaped on purpose (see above), as git pathspecs and as path prefixes. */
const DELIBERATE = ['test/fixtures/secrets/', 'test/unit/secretScrubber'];
const DELIBERATE_PATHSPECS = DELIBERATE.map((path) => `':(exclude,glob)${path}${path.endsWith('/') ? '**' : '*'}'`).join(' ');

function gitLog(): string | undefined {
  const head = spawnSync('git', ['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  if (head.status !== 0) return undefined;
  // The newest history first; `head -c` ends git early instead of buffering all of it.
  const log = spawnSync('sh', ['-c', `git log -p --no-color --no-ext-diff -- . ${DELIBERATE_PATHSPECS} | head -c ${GIT_LOG_BYTES}`], { cwd: ROOT, encoding: 'utf8', maxBuffer: GIT_LOG_BYTES * 2 });
  return log.status === 0 && log.stdout !== '' ? log.stdout : undefined;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (DELIBERATE.some((prefix) => relative(ROOT, path).startsWith(prefix.replace(/\/$/, '')))) return [];
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

interface Measured {
  source: string;
  lines: number;
  altered: string[];
}

function measure(source: string, text: string): Measured {
  return { source, lines: text.split('\n').length, altered: alteredLines(text, scrubSecrets(text).text) };
}

function report(title: string, measured: Measured[]): { lines: number; altered: number } {
  const lines = measured.reduce((sum, m) => sum + m.lines, 0);
  const altered = measured.reduce((sum, m) => sum + m.altered.length, 0);
  console.log(`\n${title}: ${altered} of ${lines} lines altered (${((altered / lines) * 100).toFixed(3)}%) in ${measured.length} source(s)`);
  for (const m of measured) for (const line of m.altered) console.log(`  altered ${m.source}: ${line.slice(0, 200)}`);
  return { lines, altered };
}

describe('secret scrubber on the project’s own text', () => {
  const log = gitLog();

  it.skipIf(log === undefined)(`alters at most ${ALTERED_LIMIT * 100}% of the lines of git log -p (first ${GIT_LOG_BYTES / 1024 / 1024} MB)`, () => {
    const { lines, altered } = report('git log -p', [measure('git log -p', log as string)]);
    expect(lines).toBeGreaterThan(1000);
    expect(altered / lines).toBeLessThanOrEqual(ALTERED_LIMIT);
  });

  it(`alters at most ${ALTERED_LIMIT * 100}% of the lines of the markdown files`, () => {
    const files = markdownFiles(ROOT);
    expect(files.map((f) => relative(ROOT, f))).toContain('README.md');
    const { lines, altered } = report('markdown', files.map((f) => measure(relative(ROOT, f), readFileSync(f, 'utf8'))));
    expect(altered / lines).toBeLessThanOrEqual(ALTERED_LIMIT);
  });

  const logs = (process.env.TANDEM_SCRUB_LOGS ?? '').split(delimiter).filter((f) => f !== '');

  it.skipIf(logs.length === 0)(`alters at most ${ALTERED_LIMIT * 100}% of the lines of the test logs in TANDEM_SCRUB_LOGS`, () => {
    const { lines, altered } = report('test logs', logs.map((f) => measure(f, readFileSync(f, 'utf8'))));
    expect(altered / lines).toBeLessThanOrEqual(ALTERED_LIMIT);
  });
});
