import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CommandIndex, type IndexedRecord } from '../../src/main/history/ranking/commandIndex';
import { fuzzyScore } from '../../src/main/history/ranking/fuzzyScore';
import { rankedSearch } from '../../src/main/history/ranking/rankedSearch';
import type { ParsedSearchQuery } from '../../src/main/history/historySearch';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let nextId = 1;
function run(command: string, startedAt: number, extra: Partial<IndexedRecord> = {}): IndexedRecord {
  return { id: nextId++, command, cwd: '/home/u', repoRoot: null, host: 'laptop', author: 'you', session: 's', startedAt, exitCode: 0, ...extra };
}

function search(records: IndexedRecord[], query: ParsedSearchQuery, limit = 50): { command: string; runs?: number; id: number }[] {
  const index = new CommandIndex();
  index.add(records);
  const byId = new Map(records.map((record) => [record.id, record]));
  return rankedSearch(index, query, { limit }).map((hit) => ({ ...hit, command: byId.get(hit.id)!.command }));
}

describe('fuzzy matching', () => {
  it('finds the characters in order, and nothing when one is missing or out of order', () => {
    expect(fuzzyScore('gco', 'git checkout main')).toBeGreaterThan(0);
    expect(fuzzyScore('gcm', 'git commit -m "x"')).toBeGreaterThan(0);
    expect(fuzzyScore('ocg', 'git checkout')).toBe(-1);
    expect(fuzzyScore('gcx', 'git checkout')).toBe(-1);
    expect(fuzzyScore('', 'anything')).toBe(0);
  });

  it('scores a prefix over the same letters elsewhere, word starts over the middle of words, a run over scattered letters', () => {
    expect(fuzzyScore('git', 'git status')).toBe(1);
    expect(fuzzyScore('git', 'git status')).toBeGreaterThan(fuzzyScore('git', 'echo git'));
    expect(fuzzyScore('gco', 'git checkout')).toBeGreaterThan(fuzzyScore('gco', 'big echo'));
    expect(fuzzyScore('log', 'kubectl logs')).toBeGreaterThan(fuzzyScore('log', 'kubectl blog'));
    expect(fuzzyScore('build', 'npm run build')).toBeGreaterThan(fuzzyScore('build', 'bin/u/i/l/d'));
    expect(fuzzyScore('rb', 'npm run build')).toBeGreaterThan(fuzzyScore('rb', 'carbon'));
    // The best alignment wins, not the first one found: the c that starts "checkout", not the one before it.
    expect(fuzzyScore('gco', 'gxc checkout')).toBeGreaterThan(fuzzyScore('gco', 'gxc xheckout'));
  });

  it('is case-insensitive for a lower-case pattern and case-sensitive once it has a capital', () => {
    expect(fuzzyScore('gco', 'GIT CHECKOUT')).toBeGreaterThan(0);
    expect(fuzzyScore('GCO', 'git checkout')).toBe(-1);
    expect(fuzzyScore('GC', 'Git Checkout')).toBeGreaterThan(0);
    expect(fuzzyScore('gcS', 'git config Size')).toBeGreaterThan(0);
  });

  it('matches exactly when the pattern is a subsequence, with a score between 0 and 1 (property)', () => {
    const lower = fc.string({ unit: fc.constantFrom(...'abcdeg -/_.'), maxLength: 40 });
    fc.assert(
      fc.property(lower, fc.string({ unit: fc.constantFrom(...'abcdeg'), minLength: 1, maxLength: 6 }), (text, pattern) => {
        let at = 0;
        for (const character of pattern) at = at < 0 ? at : text.indexOf(character, at) < 0 ? -1 : text.indexOf(character, at) + 1;
        const score = fuzzyScore(pattern, text);
        expect(score >= 0).toBe(at >= 0);
        if (score >= 0) expect(score).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('relevance', () => {
  const now = 100 * DAY;

  it('ranks a command run in the directory searched from above one run elsewhere at the same age', () => {
    const records = [run('make test', now, { cwd: '/srv/api' }), run('make lint', now, { cwd: '/srv/web' })];
    expect(search(records, { rank: 'relevance', from: '/srv/web', query: 'make' }).map((hit) => hit.command)).toEqual(['make lint', 'make test']);
    expect(search(records, { rank: 'relevance', from: '/srv/api', query: 'make' }).map((hit) => hit.command)).toEqual(['make test', 'make lint']);
  });

  it('ranks a command run often above a one-off of about the same age, shown once as its newest run with its count', () => {
    const often = Array.from({ length: 8 }, (_, i) => run('npm test', now - DAY - i * MINUTE));
    const once = run('npm publish', now - DAY + MINUTE);
    const hits = search([...often, once, run('ls', now)], { rank: 'relevance', query: 'npm' });
    expect(hits.map((hit) => [hit.command, hit.runs])).toEqual([
      ['npm test', 8],
      ['npm publish', 1],
    ]);
    expect(hits[0]!.id).toBe(often[0]!.id);
  });

  it('ranks today\'s command above one from weeks ago that ran as often', () => {
    const hits = search([run('docker ps', now - 30 * DAY), run('docker ps', now - 31 * DAY), run('docker compose up', now), run('docker compose up', now - MINUTE)], {
      rank: 'relevance',
      query: 'docker',
    });
    expect(hits.map((hit) => hit.command)).toEqual(['docker compose up', 'docker ps']);
  });

  it('counts only the runs the filters keep, and shows the newest of them', () => {
    const failedOld = run('cargo build', now - 2 * DAY, { exitCode: 101 });
    const records = [failedOld, run('cargo build', now - DAY), run('cargo build', now), run('cargo check', now, { exitCode: 1 })];
    const hits = search(records, { rank: 'relevance', failed: true });
    expect(hits.map((hit) => [hit.command, hit.runs])).toEqual([
      ['cargo check', 1],
      ['cargo build', 1],
    ]);
    expect(hits[1]!.id).toBe(failedOld.id);
    expect(search(records, { rank: 'relevance', cwd: '/nowhere' })).toEqual([]);
  });

  it('finds fuzzy matches, the better match first at equal age, and gives the limit', () => {
    const records = [run('grep -rn todo scope', now), run('git checkout main', now), run('echo nothing', now)];
    expect(search(records, { rank: 'relevance', match: 'fuzzy', query: 'gco' }).map((hit) => hit.command)).toEqual(['git checkout main', 'grep -rn todo scope']);
    expect(search(records, { rank: 'relevance', match: 'fuzzy', query: 'gco' }, 1).map((hit) => hit.command)).toEqual(['git checkout main']);
  });

  it('by recency, a fuzzy search gives every matching run, newest id first, without counts', () => {
    const records = [run('git checkout a', 1), run('git checkout a', 2), run('ls', 3)];
    expect(search(records, { match: 'fuzzy', query: 'gco' })).toEqual([
      { id: records[1]!.id, command: 'git checkout a' },
      { id: records[0]!.id, command: 'git checkout a' },
    ]);
  });

  it('gives each matching command once, as its newest kept run, with every kept run counted (property)', () => {
    const record = fc.record({
      command: fc.constantFrom('git status', 'git stash', 'make', 'make test', 'ls -la'),
      cwd: fc.constantFrom('/a', '/b', null),
      startedAt: fc.integer({ min: 0, max: 30 * DAY }),
      exitCode: fc.constantFrom(0, 1, null),
    });
    const query = fc.record({ query: fc.constantFrom('', 'st', 'make', 'gs'), match: fc.constantFrom('substring' as const, 'fuzzy' as const), failed: fc.boolean(), from: fc.constantFrom('/a', '/b', undefined) });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 40 }), query, (fields, q) => {
        const records = fields.map((field, i) => ({ ...run(field.command, field.startedAt), ...field, id: i + 1 }));
        const kept = records.filter(
          (r) => (!q.failed || (r.exitCode !== null && r.exitCode !== 0)) && (q.match === 'fuzzy' ? fuzzyScore(q.query, r.command) >= 0 : r.command.toLowerCase().includes(q.query)),
        );
        const hits = search(records, { rank: 'relevance', ...q }, 100);
        expect(new Set(hits.map((hit) => hit.command)).size).toBe(hits.length);
        expect(hits.map((hit) => hit.command).sort()).toEqual([...new Set(kept.map((r) => r.command))].sort());
        for (const hit of hits) {
          const runs = kept.filter((r) => r.command === hit.command);
          expect(hit.runs).toBe(runs.length);
          const newest = Math.max(...runs.map((r) => r.startedAt));
          expect(records[hit.id - 1]!.startedAt).toBe(newest);
        }
      }),
    );
  });

  it('keeps in step with records removed and records added out of id order', () => {
    const index = new CommandIndex();
    const [a, b] = [run('vim notes', now), run('vim todo', now - DAY)];
    index.add([a, b]);
    index.add([{ ...run('vim old', 0), id: -5 }]);
    expect(rankedSearch(index, { match: 'fuzzy', query: 'vim' }, { limit: 10 }).map((hit) => hit.id)).toEqual([b.id, a.id, -5]);
    index.remove([a.id, -5]);
    expect(rankedSearch(index, { rank: 'relevance', query: 'vim' }, { limit: 10 })).toEqual([{ id: b.id, runs: 1 }]);
  });

  it('counts what is added and removed after a search, same directory included', () => {
    const index = new CommandIndex();
    const [make, test] = [run('make', now, { cwd: '/a' }), run('make test', now, { cwd: '/b' })];
    index.add([make, test]);
    const order = () => rankedSearch(index, { rank: 'relevance', query: 'make', from: '/c' }, { limit: 10 });
    expect(order()).toEqual([
      { id: test.id, runs: 1 },
      { id: make.id, runs: 1 },
    ]);
    const inC = run('make', now - MINUTE, { cwd: '/c' });
    index.add([inC]);
    expect(order()).toEqual([
      { id: make.id, runs: 2 },
      { id: test.id, runs: 1 },
    ]);
    index.remove([inC.id]);
    expect(order()).toEqual([
      { id: test.id, runs: 1 },
      { id: make.id, runs: 1 },
    ]);
  });
});
