import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/main/cli';
import { AuditLog } from '../../src/main/safety/audit/auditLog';
import { tandemPaths } from '../../src/main/settings/paths';

let dataHome: string;
let savedDataHome: string | undefined;

beforeEach(() => {
  dataHome = mkdtempSync(join(tmpdir(), 'tandem-audit-cli-'));
  savedDataHome = process.env.XDG_DATA_HOME;
  process.env.XDG_DATA_HOME = dataHome;
});

afterEach(() => {
  if (savedDataHome === undefined) delete process.env.XDG_DATA_HOME;
  else process.env.XDG_DATA_HOME = savedDataHome;
  process.exitCode = undefined;
  vi.restoreAllMocks();
  rmSync(dataHome, { recursive: true, force: true });
});

/** Runs `tandem ARGS` in this process and returns what it printed and its exit code. */
async function tandem(...argv: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  process.exitCode = undefined;
  try {
    await main(argv);
  } finally {
    vi.restoreAllMocks();
  }
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { stdout, stderr, exitCode };
}

async function writeEntries(count: number): Promise<string> {
  const paths = tandemPaths(process.env);
  const log = new AuditLog(paths.auditFile, paths.auditHeadFile);
  for (let step = 1; step <= count; step++) {
    await log.append({ event: 'executed', conversation: 'c', plan: 'p', step, command: `make step${step}`, cwd: '/tmp', exitCode: 0, durationMs: 5 });
  }
  await log.flush();
  return paths.auditFile;
}

describe('tandem audit verify', () => {
  it('says there is no log yet and exits 0', async () => {
    const file = tandemPaths(process.env).auditFile;
    expect(file.startsWith(dataHome)).toBe(true);
    expect(await tandem('audit', 'verify')).toEqual({ stdout: `no audit log yet at ${file}\n`, stderr: '', exitCode: 0 });
  });

  it('reports an intact log in the data dir and exits 0', async () => {
    const file = await writeEntries(12);
    expect(await tandem('audit', 'verify')).toEqual({ stdout: `audit log intact: 12 entries (${file})\n`, stderr: '', exitCode: 0 });
  });

  it('names the first broken line and exits 1', async () => {
    const file = await writeEntries(12);
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, lines.filter((_, index) => index !== 4).join('\n'));
    const result = await tandem('audit', 'verify');
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe(`audit log broken at line 5: seq is 6, expected 5 (a line was deleted, inserted or moved here) (${file})\n`);
  });

  it('notices the last line removed, through audit.head', async () => {
    const file = await writeEntries(7);
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, `${lines.slice(0, 6).join('\n')}\n`);
    const result = await tandem('audit', 'verify');
    expect(result).toMatchObject({ exitCode: 1, stdout: expect.stringContaining('broken at line 7: the log ends at line 6 but the last recorded entry was 7') });
  });

  it('verifies another file with --file, using the head next to it', async () => {
    const file = await writeEntries(3);
    const copy = join(dataHome, 'copy.jsonl');
    copyFileSync(file, copy);
    expect(await tandem('audit', 'verify', '--file', copy)).toMatchObject({ stdout: `audit log intact: 3 entries (${copy})\n`, exitCode: 0 });
    copyFileSync(tandemPaths(process.env).auditHeadFile, join(dataHome, 'copy.head'));
    writeFileSync(copy, readFileSync(copy, 'utf8').split('\n').slice(0, 2).join('\n') + '\n');
    expect(await tandem('audit', 'verify', `--file=${copy}`)).toMatchObject({ exitCode: 1, stdout: expect.stringContaining('broken at line 3') });
  });

  it('exits 2 with a message when the log cannot be read', async () => {
    const file = tandemPaths(process.env).auditFile;
    // A directory where the log should be: unreadable as a file even for root.
    mkdirSync(file, { recursive: true });
    const result = await tandem('audit', 'verify');
    expect(result).toMatchObject({ stdout: '', exitCode: 2, stderr: expect.stringContaining(`cannot read the audit log ${file}`) });
  });

  it('exits 2 naming the file when the log given with --file does not exist', async () => {
    const missing = join(dataHome, 'nonexistent', 'audit.jsonl');
    expect(await tandem('audit', 'verify', '--file', missing)).toEqual({ stdout: '', stderr: `tandem: no audit log at ${missing}: the file given with --file does not exist\n`, exitCode: 2 });
  });

  it('explains a bad subcommand and exits 2', async () => {
    expect(await tandem('audit', 'frobnicate')).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('tandem audit verify') });
  });
});
