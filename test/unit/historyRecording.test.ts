import { describe, expect, it } from 'vitest';
import { parseSince } from '../../src/main/agent/tools/sinceText';
import { BlockAuthors } from '../../src/main/history/recording/blockAuthors';
import { blockRecordOf } from '../../src/main/history/recording/blockRecordOf';
import { CommandExclusion } from '../../src/main/history/recording/commandExclusion';
import { loadSettings } from '../../src/main/settings/configFile';
import type { Block } from '../../src/shared/blocks';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import { ALNUM, pseudo } from '../support/pseudoText';
import { useTempConfigFile } from '../support/tempConfigFile';

const tempFile = useTempConfigFile('tandem-history-settings-');
const place = { host: 'box', shell: 'bash', pane: 's/1', session: 's' };
const block = (command: string): Block => ({ id: 'p1b1', paneId: 1, command, cwd: '/work', startedAt: 1_000, endedAt: 3_500, exitCode: 2, trusted: true, outputOffset: 0, usedAlternateScreen: false });

describe('[history] settings', () => {
  it('has its defaults, and reads what the file sets', () => {
    expect(DEFAULT_SETTINGS.history).toEqual({ enabled: true, keep_output: 'digest', max_output_kb: 64, exclude: [], max_days: 0, max_mb: 0, search_key: '' });
    const { settings, error } = loadSettings(tempFile('[history]\nkeep_output = "full"\nexclude = ["git push *", "/^pass /"]\nmax_days = 90\n'));
    expect(error).toBeUndefined();
    expect(settings.history).toMatchObject({ keep_output: 'full', exclude: ['git push *', '/^pass /'], max_days: 90, enabled: true });
  });

  it('names the key and the entry of a bad value, and keeps the defaults', () => {
    const badRegex = loadSettings(tempFile('[history]\nexclude = ["ok *", "/a(/"]\n'));
    expect(badRegex.error).toMatch(/^history\.exclude \(line 2\): entry 2, \/a\(\/: not a valid regular expression/);
    expect(badRegex.settings).toEqual(DEFAULT_SETTINGS);
    expect(loadSettings(tempFile('[history]\nkeep_output = "most"\n')).error).toMatch(/^history\.keep_output \(line 2\): .*"digest"\|"none"\|"full"/);
    expect(loadSettings(tempFile('[history]\nmax_output_kb = 0\n')).error).toMatch(/^history\.max_output_kb/);
    expect(loadSettings(tempFile('[history]\nexclude = [""]\n')).error).toContain('an empty pattern would match nothing');
  });
});

describe('which commands are not stored', () => {
  const exclusion = new CommandExclusion(['*password*', 'git push *', '/^(export|set) [A-Z_]+=/']);

  it('skips a leading blank, as HISTCONTROL=ignorespace does', () => {
    expect(exclusion.excludes(' ls')).toBe(true);
    expect(exclusion.excludes('\tls')).toBe(true);
    expect(exclusion.excludes('ls')).toBe(false);
  });

  it('matches globs against the whole command, * spanning spaces and slashes, and /regex/ anywhere it says', () => {
    expect(exclusion.excludes('mysql --password=x -h db/prod')).toBe(true);
    expect(exclusion.excludes('git push origin feature/x')).toBe(true);
    expect(exclusion.excludes('git pushy')).toBe(false);
    expect(exclusion.excludes('echo git push x')).toBe(false);
    expect(exclusion.excludes('export API_TOKEN=abc')).toBe(true);
    expect(exclusion.excludes('echo export API_TOKEN=abc')).toBe(false);
  });
});

describe('a block as a record', () => {
  const history = DEFAULT_SETTINGS.history;

  it('carries the facts of the block and who ran it', () => {
    const record = blockRecordOf(block('make'), 'one\ntwo\n', place, history, { author: 'agent-step', decision: 'allowed by you', rule: 'GREEN', conversation: 'c1' });
    expect(record).toMatchObject({ command: 'make', cwd: '/work', host: 'box', shell: 'bash', pane: 's/1', session: 's', startedAt: 1_000, endedAt: 3_500, durationMs: 2_500, exitCode: 2, author: 'agent-step', decision: 'allowed by you', rule: 'GREEN', conversation: 'c1', output: null });
    expect(record.outputDigest).toContain('one\ntwo');
    expect(blockRecordOf(block('make'), 'x', place, history, undefined)).toMatchObject({ author: 'you', decision: null });
  });

  it('keeps no output with keep_output = "none", and all of it (capped) with "full"', () => {
    expect(blockRecordOf(block('make'), undefined, place, { ...history, keep_output: 'none' }, undefined)).toMatchObject({ outputDigest: null, output: null });
    const long = 'line of output\n'.repeat(1_000);
    const full = blockRecordOf(block('make'), long, place, { ...history, keep_output: 'full', max_output_kb: 1 }, undefined);
    expect(full.output!.length).toBeLessThanOrEqual(1024);
    expect(full.output).toMatch(/^line of output\n[^]*characters omitted[^]*line of output\n$/);
  });

  it('scrubs the command, the digest and the output before it cuts them', () => {
    const secret = `ghp_${pseudo(36, ALNUM, 53)}`;
    const record = blockRecordOf(block(`curl -H "Authorization: token ${secret}" api`), `token ${secret}\n`, place, { ...history, keep_output: 'full' }, undefined);
    expect(JSON.stringify(record)).not.toContain(secret);
    expect(record.command).toContain('[REDACTED');
    expect(record.output).toContain('[REDACTED');
  });
});

describe('who ran a block', () => {
  it('is told once, and forgets the oldest claims beyond its bound', () => {
    const authors = new BlockAuthors();
    authors.claim('p1b1', { author: 'auto-run' });
    expect(authors.take('p1b1')).toEqual({ author: 'auto-run' });
    expect(authors.take('p1b1')).toBeUndefined();
    for (let i = 0; i < 201; i++) authors.claim(`p1b${i}`, { author: 'agent-step' });
    expect(authors.take('p1b0')).toBeUndefined();
    expect(authors.take('p1b200')).toEqual({ author: 'agent-step' });
  });
});

describe("search_history's since", () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  it('reads spans and dates, and refuses anything else', () => {
    expect(parseSince('3d', now)).toBe(now - 3 * 86_400_000);
    expect(parseSince('30m', now)).toBe(now - 1_800_000);
    expect(parseSince('2W', now)).toBe(now - 14 * 86_400_000);
    expect(parseSince('2026-01-31', now)).toBe(Date.parse('2026-01-31'));
    expect(parseSince('last tuesday', now)).toBeNull();
    expect(parseSince('2026-13-45', now)).toBeNull();
  });
});
