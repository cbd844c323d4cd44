import { describe, expect, it } from 'vitest';
import { parseArguments } from '../../src/main/cli/arguments';
import { parseHistoryArguments } from '../../src/main/cli/history/historyArguments';

const now = new Date(2026, 10, 29, 12, 0, 0);
const parse = (...argv: string[]) => parseHistoryArguments(argv, now, '/home/me');

describe('tandem history arguments', () => {
  it('is a subcommand of tandem with its own options', () => {
    expect(parseArguments(['history', 'git', '--failed'])).toEqual({ kind: 'history', argv: ['git', '--failed'] });
  });

  it('joins the words of a query and reads every filter in both spellings', () => {
    expect(parse('git', 'push', '--failed', '--cwd', 'app', '--since=3h', '--limit', '5', '--json')).toEqual({
      kind: 'search',
      query: { query: 'git push', failed: true, cwd: '/home/me/app', since: now.getTime() - 3 * 3_600_000, limit: 5 },
      json: true,
    });
    expect(parse('--since', '2026-11-01')).toEqual({ kind: 'search', query: { since: new Date(2026, 10, 1).getTime() }, json: false });
    expect(parse()).toEqual({ kind: 'search', query: {}, json: false });
  });

  it('takes everything after -- as the query, subcommand names and options included', () => {
    expect(parse('--', 'stats', '--json')).toEqual({ kind: 'search', query: { query: 'stats --json' }, json: false });
    expect(parse('--', '--help')).toEqual({ kind: 'search', query: { query: '--help' }, json: false });
  });

  it('forgets by ids (imported records have ids of 0 and below) or by a search', () => {
    expect(parse('forget', '12', '-3')).toEqual({ kind: 'forget-ids', ids: [12, -3] });
    expect(parse('forget', '--query', 'curl', '--cwd', '/srv', '--yes')).toEqual({ kind: 'forget-query', query: { query: 'curl', cwd: '/srv' }, yes: true });
    expect(parse('forget', '12', '--query', 'x')).toMatchObject({ kind: 'error' });
    expect(parse('forget', '--query', 'x', '--limit', '3')).toEqual({ kind: 'error', message: 'Unknown option "--limit" for tandem history forget.' });
  });

  it('imports a source, a source and a file, or whatever is found', () => {
    expect(parse('import')).toEqual({ kind: 'import' });
    expect(parse('import', 'atuin')).toEqual({ kind: 'import', source: 'atuin' });
    expect(parse('import', 'zsh', 'old.txt')).toEqual({ kind: 'import', source: 'zsh', file: 'old.txt' });
    expect(parse('import', 'zsh', 'a', 'b')).toMatchObject({ kind: 'error' });
    expect(parse('stats', '--json')).toEqual({ kind: 'stats', json: true });
  });

  it('refuses --yes outside forget', () => {
    expect(parse('git', '--yes')).toEqual({ kind: 'error', message: '--yes is only for tandem history forget.' });
  });
});
