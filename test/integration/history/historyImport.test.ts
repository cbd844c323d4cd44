import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredRecord } from '../../../src/main/history/historyRecord';
import { HistoryStore } from '../../../src/main/history/historyStore';
import { importHistory, type SourceReport } from '../../../src/main/history/import/importHistory';
import type { HistorySource } from '../../../src/main/history/import/importedRecords';
import { buildAtuinDatabase, nanoseconds } from '../../support/atuinDatabase';

// Importing each shell's history format from fixture files into a real store: the fields each
// format knows, real start times, skipped lines counted, nothing stored twice, secrets scrubbed
// before they reach the database file.

const FIXTURES = join(__dirname, '../../fixtures/history');
const SECRETS = ['ghp_R7cK2mX9pQ4vL8nW3sT6yB1dF5hJ0gZaEeUu', 'AKIA4QX7RZ2LM9PV3NWB', 'Tr0ub4dor-Horse-9x', 'Hunter2Secret!x', 'sk-live-atuin-Zq8Wm3Rt6Yp1'];

let dir: string;
let store: HistoryStore;
let databaseFile: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-history-import-'));
  databaseFile = join(dir, 'tandem', 'history.sqlite');
  store = await HistoryStore.open({ file: databaseFile });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fixture copied into the test's folder (its mtime is then now, and it can be changed). */
function fixture(name: string): string {
  const file = join(dir, name);
  copyFileSync(join(FIXTURES, name), file);
  return file;
}

async function importOne(source: HistorySource, file: string): Promise<SourceReport> {
  const reports = await importHistory(store, { source, file }, { HOME: dir }, 'this-host');
  expect(reports).toHaveLength(1);
  return reports[0]!;
}

async function all(): Promise<StoredRecord[]> {
  const found = await store.search({ limit: 1000 });
  if (!found.ok) throw new Error(found.error);
  // Oldest first, as they were typed.
  return found.value.reverse();
}

/** The raw bytes of the database and its write-ahead log, where a secret would be if it had been written. */
function databaseBytes(): string {
  let bytes = readFileSync(databaseFile).toString('latin1');
  try {
    bytes += readFileSync(`${databaseFile}-wal`).toString('latin1');
  } catch {
    // No WAL at this moment: everything is in the main file.
  }
  return bytes;
}

describe('bash', () => {
  it('imports a plain history in order, before the file was last written, skipping a line that is not UTF-8', async () => {
    const file = fixture('bash_history_plain');
    const modifiedAt = Math.floor(statSync(file).mtimeMs);
    const report = await importOne('bash', file);
    expect(report).toMatchObject({ source: 'bash', found: 7, stored: 6, duplicates: 0, skipped: 1, firstSkippedLine: 5 });
    const records = await all();
    expect(records.map((r) => r.command)).toEqual(['ls -la', 'cd /srv/app', 'git status', 'export GITHUB_TOKEN=[REDACTED:github-token]', 'git status', 'make test']);
    // No times in the file: the order is kept, 1 ms apart, the last one just before the file's mtime.
    expect(records.map((r) => r.startedAt)).toEqual([6, 5, 4, 3, 2, 1].map((back) => modifiedAt - back));
    expect(records[0]).toMatchObject({ imported: true, author: 'you', shell: 'bash', host: 'this-host', exitCode: null, durationMs: null, cwd: null, outputDigest: null, output: null });
  });

  it('uses the #epoch lines of HISTTIMEFORMAT, with the lines up to the next one as one command', async () => {
    const report = await importOne('bash', fixture('bash_history_timestamped'));
    // A timestamp out of range and one with no command after it are skipped.
    expect(report).toMatchObject({ found: 7, stored: 5, skipped: 2, firstSkippedLine: 10 });
    const records = await all();
    const byCommand = new Map(records.map((r) => [r.command, r.startedAt]));
    expect(byCommand.get('git pull')).toBe(1_700_000_000_000);
    expect(byCommand.get('for f in *.log; do\n  gzip "$f"\ndone')).toBe(1_700_000_060_000);
    expect(byCommand.get('aws s3 ls # [REDACTED:aws-access-key]')).toBe(1_700_000_120_000);
    // Before the first timestamp: just before it, so the order holds.
    expect(byCommand.get('echo before timestamps')).toBe(1_700_000_000_000 - 1);
  });
});

describe('zsh', () => {
  it('reads the extended format: start, duration, multi-line commands, metafied bytes, plain lines', async () => {
    const report = await importOne('zsh', fixture('zsh_history'));
    expect(report).toMatchObject({ found: 9, stored: 7, skipped: 2, firstSkippedLine: 8 });
    const records = await all();
    expect(records.map((r) => [r.command, r.startedAt, r.durationMs])).toEqual([
      ['git status', 1_700_000_000_000, 0],
      ['npm run build', 1_700_000_005_000, 12_000],
      ['echo 日本 → à', 1_700_000_030_000, 0],
      ['for i in 1 2; do\n  echo $i\ndone', 1_700_000_040_000, 1_000],
      ['git clone https://alice:[REDACTED:url-password]@git.example.com/repo.git', 1_700_000_050_000, 0],
      // A plain line between extended ones: just before the next known time.
      ['plain-command-without-time', 1_700_000_070_000 - 1, null],
      ['make deploy', 1_700_000_070_000, 3_000],
    ]);
    expect(records[1]).toMatchObject({ endedAt: 1_700_000_017_000, shell: 'zsh', exitCode: null, imported: true });
  });
});

describe('fish', () => {
  it('reads cmd, when and paths entries and undoes fish escapes', async () => {
    const report = await importOne('fish', fixture('fish_history'));
    expect(report).toMatchObject({ found: 8, stored: 6, skipped: 2, firstSkippedLine: 12 });
    const records = await all();
    expect(records.map((r) => r.command)).toEqual([
      'git log --oneline',
      'echo a\\b',
      'for x in 1 2\necho $x\nend',
      'mysql -u root --password=[REDACTED:password]',
      'no-time-command',
      'vim notes.txt',
    ]);
    expect(records[2]).toMatchObject({ startedAt: 1_700_000_020_000, shell: 'fish' });
  });
});

describe('atuin', () => {
  it('maps cwd, exit, duration, time, host, session, shell and who ran it, from the WAL too, leaving deleted entries out', async () => {
    const file = join(dir, 'atuin', 'history.db');
    mkdirSync(join(dir, 'atuin'));
    const base = { cwd: '/home/me/app', session: 'sess-1', hostname: 'workstation:me', duration: 2_500_000_000, exit: 0 };
    const atuin = buildAtuinDatabase(file, [
      { ...base, id: '0190a1', timestamp: nanoseconds(1_700_000_000_123), command: 'cargo build', exit: 101, shell: 'zsh' },
      { ...base, id: '0190a2', timestamp: nanoseconds(1_700_000_100_000), command: 'export GH=ghp_Q2wE4rT6yU8iO0pA1sD3fG5hJ7kL9zX2cV4b', author: 'claude-code', author_kind: 2 },
      // atuin's own imports: exit and duration -1, cwd "unknown".
      { ...base, id: '0190a3', timestamp: nanoseconds(1_600_000_000_000), command: 'old imported', exit: -1, duration: -1, cwd: 'unknown', session: 'sess-0' },
      { ...base, id: '0190a4', timestamp: nanoseconds(1_700_000_200_000), command: 'rm secret.txt', deleted_at: nanoseconds(1_700_000_300_000) },
      { ...base, id: '0190a5', timestamp: nanoseconds(1_700_000_300_000), command: '   ' },
    ]);
    try {
      const report = await importOne('atuin', file);
      expect(report).toMatchObject({ found: 4, stored: 3, skipped: 1, firstSkippedLine: 4 });
    } finally {
      atuin.close();
    }
    const records = await all();
    expect(records.map((r) => r.command)).toEqual(['old imported', 'cargo build', 'export GH=[REDACTED:github-token]']);
    expect(records[0]).toMatchObject({ cwd: null, exitCode: null, durationMs: null, session: 'sess-0', host: 'workstation', shell: null, author: 'you' });
    expect(records[1]).toMatchObject({ cwd: '/home/me/app', exitCode: 101, durationMs: 2_500, startedAt: 1_700_000_000_123, endedAt: 1_700_000_002_623, session: 'sess-1', shell: 'zsh', author: 'you', imported: true });
    expect(records[2]).toMatchObject({ author: 'agent-step' });
  });

  it('says clearly when the file is not an atuin database, and imports nothing', async () => {
    const file = join(dir, 'history.db');
    writeFileSync(file, 'this is not sqlite\n'.repeat(200));
    const report = await importOne('atuin', file);
    expect(report.stored).toBe(0);
    expect(report.error).toMatch(/cannot be read as an atuin database/);
    expect(await all()).toEqual([]);
  });
});

it('stores nothing twice when the same files are imported again, and only what the shell appended since', async () => {
  const files = { bash: fixture('bash_history_timestamped'), zsh: fixture('zsh_history'), fish: fixture('fish_history') };
  const first = await Promise.all((['bash', 'zsh', 'fish'] as const).map((source) => importOne(source, files[source])));
  const stored = first.reduce((sum, report) => sum + report.stored, 0);
  expect(stored).toBe(5 + 7 + 6);
  const again = await importOne('zsh', files.zsh);
  expect(again).toMatchObject({ stored: 0, duplicates: 7 });
  writeFileSync(files.zsh, `${readFileSync(files.zsh, 'latin1')}: 1700000900:0;git status\n`, 'latin1');
  // The same command again, later: a new entry, stored; the ones before are not.
  expect(await importOne('zsh', files.zsh)).toMatchObject({ stored: 1, duplicates: 7 });
  // Its untimed lines get times from the file's mtime; a later mtime must not make them new.
  utimesSync(files.bash, new Date(), new Date(Date.now() + 3_600_000));
  expect(await importOne('bash', files.bash)).toMatchObject({ stored: 0, duplicates: 5 });
  expect((await all()).length).toBe(stored + 1);
});

it('keeps every planted secret out of the database file and its WAL', async () => {
  const atuinFile = join(dir, 'atuin.db');
  const atuin = buildAtuinDatabase(atuinFile, [
    { id: 'x1', timestamp: nanoseconds(1_700_000_000_000), duration: 1, exit: 0, command: 'curl https://bob:sk-live-atuin-Zq8Wm3Rt6Yp1@api.example.com', cwd: '/tmp', session: 's', hostname: 'h:u' },
  ]);
  for (const [source, file] of [['bash', fixture('bash_history_plain')], ['bash', fixture('bash_history_timestamped')], ['zsh', fixture('zsh_history')], ['fish', fixture('fish_history')], ['atuin', atuinFile]] as const) {
    const report = await importOne(source, file);
    expect(report.stored).toBeGreaterThan(0);
  }
  atuin.close();
  const bytes = databaseBytes();
  // The records are there (the check below would pass on an empty file otherwise)…
  expect(bytes).toContain('[REDACTED:');
  expect(bytes).toContain('git clone https://alice:');
  // …and none of the secrets.
  for (const secret of SECRETS) expect(bytes).not.toContain(secret);
});

it('reports a missing file without failing the other sources', async () => {
  const home = join(dir, 'home');
  mkdirSync(home);
  copyFileSync(join(FIXTURES, 'zsh_history'), join(home, '.zsh_history'));
  const detected = await importHistory(store, {}, { HOME: home, XDG_DATA_HOME: join(home, '.local/share') }, 'h');
  expect(detected.map((report) => [report.source, report.stored])).toEqual([['zsh', 7]]);
  const missing = await importHistory(store, { source: 'fish', file: join(home, 'nope') }, { HOME: home }, 'h');
  expect(missing).toEqual([expect.objectContaining({ source: 'fish', stored: 0, error: `there is no file ${join(home, 'nope')}` })]);
});
