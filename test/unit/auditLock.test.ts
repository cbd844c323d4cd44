import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/main/safety/audit/auditLog';
import { acquireFileLock, FileLockNotTaken } from '../../src/main/safety/audit/auditLock';
import { verifyAuditLog } from '../../src/main/safety/audit/auditVerify';

let dir: string;
let file: string;
let headFile: string;
let lockFile: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-audit-lock-'));
  file = join(dir, 'data', 'audit.jsonl');
  headFile = join(dir, 'data', 'audit.head');
  lockFile = `${file}.lock`;
  mkdirSync(join(dir, 'data'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has already exited. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  return pid!;
}

function leaveLock(holder: object | string, ageSeconds = 0): void {
  writeFileSync(lockFile, typeof holder === 'string' ? holder : JSON.stringify(holder));
  if (ageSeconds > 0) {
    const then = Date.now() / 1000 - ageSeconds;
    utimesSync(lockFile, then, then);
  }
}

/** Appends two entries with a log that would report any lock it could not take within `maxWaitMs`. */
async function appendTwo(maxWaitMs: number, staleMs?: number): Promise<Error[]> {
  const errors: Error[] = [];
  const log = new AuditLog(file, headFile, { onError: (error) => errors.push(error), lock: { maxWaitMs, staleMs } });
  await log.append({ event: 'approved', command: 'echo one' });
  await log.append({ event: 'executed', command: 'echo one', exitCode: 0 });
  return errors;
}

describe('the audit log lock', () => {
  it('leaves no lock behind after appends', async () => {
    expect(await appendTwo(2_000)).toEqual([]);
    expect(existsSync(lockFile)).toBe(false);
    expect(await verifyAuditLog(file, headFile)).toEqual({ ok: true, lines: 2 });
  });

  it('breaks a fresh lock left by a process that died', async () => {
    leaveLock({ pid: deadPid(), host: hostname() });
    // Only the dead pid can free this lock: it is far from old enough to count as stale.
    expect(await appendTwo(2_000, 60_000)).toEqual([]);
    expect(existsSync(lockFile)).toBe(false);
    expect(await verifyAuditLog(file, headFile)).toEqual({ ok: true, lines: 2 });
  });

  it('breaks a lock older than the stale age even when its holder still runs', async () => {
    leaveLock({ pid: process.pid, host: hostname() }, 60);
    expect(await appendTwo(2_000, 10_000)).toEqual([]);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('breaks an old lock whose holder never wrote its name into it', async () => {
    leaveLock('', 60);
    expect(await appendTwo(2_000, 10_000)).toEqual([]);
  });

  it('waits for a live holder only so long, then appends anyway and reports it', async () => {
    leaveLock({ pid: process.pid, host: hostname() });
    const errors = await appendTwo(100, 60_000);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBeInstanceOf(FileLockNotTaken);
    expect(errors[0]!.message).toContain(`held by pid ${process.pid}`);
    expect(errors[0]!.message).toContain('the entry was appended without it');
    // Nothing is lost, and the other holder's lock is not touched.
    expect(await verifyAuditLog(file, headFile)).toEqual({ ok: true, lines: 2 });
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toEqual({ pid: process.pid, host: hostname() });
  });

  it('appends without the lock, and says so, when the lock cannot be used at all', async () => {
    mkdirSync(lockFile);
    const errors = await appendTwo(2_000);
    expect(errors.map((error) => error.message)).toEqual([expect.stringContaining('cannot be read'), expect.stringContaining('cannot be read')]);
    expect(await verifyAuditLog(file, headFile)).toEqual({ ok: true, lines: 2 });
  });

  it('does not judge a lock from another host by a pid that means nothing here', async () => {
    leaveLock({ pid: deadPid(), host: `not-${hostname()}` });
    const errors = await appendTwo(100, 60_000);
    expect(errors[0]!.message).toContain(`on not-${hostname()}`);
    expect(existsSync(lockFile)).toBe(true);
  });

  it('creates the lock 0600, naming this process, and creates the folder it goes in', async () => {
    const nested = join(dir, 'new', 'audit.jsonl.lock');
    const lock = await acquireFileLock(nested);
    expect(JSON.parse(readFileSync(nested, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    expect(statSync(nested).mode & 0o777).toBe(0o600);
    await lock.release();
    expect(existsSync(nested)).toBe(false);
  });

  it('a holder that lost its lock does not remove the next holder’s on release', async () => {
    const lock = await acquireFileLock(lockFile);
    unlinkSync(lockFile);
    leaveLock({ pid: process.pid, host: hostname() });
    await lock.release();
    expect(existsSync(lockFile)).toBe(true);
  });
});
