import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatAuditLine, GENESIS_HASH, hashLine, type AuditRecord } from '../../src/main/safety/audit/auditEntry';
import { AuditLog } from '../../src/main/safety/audit/auditLog';
import { verifyAuditLog } from '../../src/main/safety/audit/auditVerify';

let dir: string;
let file: string;
let headFile: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-audit-'));
  file = join(dir, 'data', 'audit.jsonl');
  headFile = join(dir, 'data', 'audit.head');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const step = (n: number): AuditRecord => ({
  event: n % 2 ? 'approved' : 'executed',
  conversation: 'c1',
  plan: 'p1',
  step: n,
  command: `echo step ${n}`,
  cwd: '/tmp',
  decision: 'ask',
  decidedBy: { kind: 'person', rule: 'approved in the panel' },
  ...(n % 2 ? {} : { exitCode: 0, durationMs: 12 }),
});

async function writeLog(count: number): Promise<string[]> {
  const log = new AuditLog(file, headFile);
  for (let n = 1; n <= count; n++) await log.append(step(n));
  await log.flush();
  expect(log.lastError).toBeUndefined();
  return readLines();
}

function readLines(): string[] {
  return readFileSync(file, 'utf8').split('\n').slice(0, -1);
}

function rewrite(lines: string[]): void {
  mkdirSync(join(dir, 'data'), { recursive: true });
  writeFileSync(file, lines.map((line) => `${line}\n`).join(''));
}

describe('AuditLog', () => {
  it('writes a chain of lines with seq, time, the previous line’s hash and the record, in a stable key order', async () => {
    const lines = await writeLog(3);
    expect(lines).toHaveLength(3);
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    expect(entries[0].prev).toBe(GENESIS_HASH);
    expect(entries[1].prev).toBe(hashLine(lines[0]!));
    expect(entries[2].prev).toBe(hashLine(lines[1]!));
    expect(Object.keys(entries[1])).toEqual(['seq', 'ts', 'prev', 'event', 'conversation', 'plan', 'step', 'command', 'cwd', 'decision', 'decidedBy', 'exitCode', 'durationMs']);
    expect(new Date(entries[0].ts).toISOString()).toBe(entries[0].ts);
    expect(JSON.parse(readFileSync(headFile, 'utf8'))).toEqual({ seq: 3, hash: hashLine(lines[2]!) });
  });

  it('writes the same line whatever order the caller built the record in', () => {
    const a = formatAuditLine(1, 't', GENESIS_HASH, { event: 'denied', reason: 'no', command: 'rm -rf /', decidedBy: { rule: 'r', kind: 'builtin' } });
    const b = formatAuditLine(1, 't', GENESIS_HASH, { decidedBy: { kind: 'builtin', rule: 'r' }, command: 'rm -rf /', reason: 'no', event: 'denied' });
    expect(a).toBe(b);
  });

  it('creates the log and its head with mode 0600 in a 0700 directory', async () => {
    await writeLog(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(headFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700);
  });

  it('tightens an existing log to 0600', async () => {
    await writeLog(1);
    chmodSync(file, 0o644);
    await writeLog(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('keeps order and a valid chain under 50 concurrent appends', async () => {
    const log = new AuditLog(file, headFile);
    await Promise.all(Array.from({ length: 50 }, (_, i) => log.append(step(i + 1))));
    const steps = readLines().map((line) => JSON.parse(line).step);
    expect(steps).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await verifyAuditLog(file, headFile)).toEqual({ ok: true, lines: 50 });
  });

  it('continues the chain of an existing log when opened again', async () => {
    await writeLog(5);
    const lines = await writeLog(2);
    expect(lines).toHaveLength(7);
    expect(JSON.parse(lines[5]!)).toMatchObject({ seq: 6, prev: hashLine(lines[4]!) });
    expect(await verifyAuditLog(file, headFile)).toEqual({ ok: true, lines: 7 });
  });

  it('continues after lines another writer appended', async () => {
    const first = new AuditLog(file, headFile);
    const second = new AuditLog(file, headFile);
    await first.append(step(1));
    await second.append(step(2));
    await first.append(step(3));
    expect(await verifyAuditLog(file, headFile)).toEqual({ ok: true, lines: 3 });
  });

  it('records damage found on opening as a tamper entry and keeps appending', async () => {
    const lines = await writeLog(4);
    rewrite(lines.slice(0, 3));
    const after = await writeLog(1);
    expect(JSON.parse(after[3]!)).toMatchObject({ seq: 4, event: 'tamper', reason: expect.stringContaining('removed from the end') });
    expect(JSON.parse(after[4]!)).toMatchObject({ seq: 5, event: 'approved' });
    // The chain continues from the cut log, but verify still reports the damage, at the tamper entry.
    expect(await verifyAuditLog(file, headFile)).toMatchObject({ ok: false, lines: 5, line: 4, problem: expect.stringContaining('removed from the end') });
  });

  it('starts a fresh line after a cut-off last line and names it broken', async () => {
    await writeLog(2);
    appendFileSync(file, '{"seq":3,"ts":"2025');
    const after = await writeLog(1);
    expect(after).toHaveLength(5);
    expect(JSON.parse(after[3]!)).toMatchObject({ seq: 4, event: 'tamper', prev: hashLine(after[2]!) });
    expect(await verifyAuditLog(file, headFile)).toMatchObject({ ok: false, line: 3, problem: 'not valid JSON' });
  });

  it('never throws: a write error is remembered and reported', async () => {
    writeFileSync(join(dir, 'blocker'), '');
    const errors: Error[] = [];
    const log = new AuditLog(join(dir, 'blocker', 'audit.jsonl'), join(dir, 'blocker', 'audit.head'), { onError: (error) => errors.push(error) });
    await expect(log.append(step(1))).resolves.toBeUndefined();
    await log.flush();
    expect(log.lastError).toBeInstanceOf(Error);
    expect(errors).toHaveLength(1);
  });
});

describe('verifyAuditLog', () => {
  it('accepts watcher events after lines written before they existed, the watcher key last', async () => {
    await writeLog(3);
    const log = new AuditLog(file, headFile);
    await log.append({ event: 'watcher-fired', cwd: '/tmp/p', reason: 'src/a.ts changed', watcher: 'tests' });
    await log.append({ event: 'watcher-held', reason: 'held: 6 runs an hour reached', watcher: 'tests' });
    await log.flush();
    const lines = readLines();
    expect(Object.keys(JSON.parse(lines[3]!))).toEqual(['seq', 'ts', 'prev', 'event', 'cwd', 'reason', 'watcher']);
    expect(await verifyAuditLog(file, headFile)).toEqual({ ok: true, lines: 5 });
  });

  it('accepts an intact chain of 20 entries', async () => {
    await writeLog(20);
    expect(await verifyAuditLog(file, headFile)).toEqual({ ok: true, lines: 20 });
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 20 });
  });

  it('names a line whose field was edited', async () => {
    const lines = await writeLog(20);
    lines[9] = lines[9]!.replace('echo step 10', 'echo step X');
    rewrite(lines);
    expect(await verifyAuditLog(file, headFile)).toMatchObject({ ok: false, lines: 20, line: 10, problem: expect.stringContaining('changed after it was written') });
  });

  it('names the edited line when it is the one before the last', async () => {
    const lines = await writeLog(5);
    lines[3] = lines[3]!.replace('echo step 4', 'echo step X');
    rewrite(lines);
    expect(await verifyAuditLog(file, headFile)).toMatchObject({ ok: false, line: 4 });
    expect(await verifyAuditLog(file)).toMatchObject({ ok: false, line: 4 });
  });

  it('names a line whose prev hash was replaced', async () => {
    const lines = await writeLog(6);
    lines[2] = lines[2]!.replace(/"prev":"[0-9a-f]{64}"/, `"prev":"${'a'.repeat(64)}"`);
    rewrite(lines);
    expect(await verifyAuditLog(file, headFile)).toMatchObject({ ok: false, line: 3, problem: expect.stringContaining('this line was edited') });
  });

  it('names the place of a deleted middle line', async () => {
    const lines = await writeLog(20);
    rewrite([...lines.slice(0, 7), ...lines.slice(8)]);
    expect(await verifyAuditLog(file, headFile)).toMatchObject({ ok: false, lines: 19, line: 8, problem: expect.stringContaining('seq is 9, expected 8') });
  });

  it('names swapped lines', async () => {
    const lines = await writeLog(20);
    [lines[11], lines[12]] = [lines[12]!, lines[11]!];
    rewrite(lines);
    expect(await verifyAuditLog(file, headFile)).toMatchObject({ ok: false, line: 12, problem: expect.stringContaining('seq is 13, expected 12') });
  });

  it('names a deleted line even when the later lines were renumbered', async () => {
    const lines = await writeLog(10);
    const renumbered = lines.slice(5).map((line) => line.replace(/^\{"seq":(\d+)/, (_, seq) => `{"seq":${Number(seq) - 1}`));
    rewrite([...lines.slice(0, 4), ...renumbered]);
    expect(await verifyAuditLog(file)).toMatchObject({ ok: false, line: 5 });
  });

  it('notices lines cut off the end through the head', async () => {
    const lines = await writeLog(7);
    rewrite(lines.slice(0, 6));
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 6 });
    expect(await verifyAuditLog(file, headFile)).toEqual({
      ok: false,
      lines: 6,
      line: 7,
      problem: 'the log ends at line 6 but the last recorded entry was 7 (lines were removed from the end)',
    });
  });

  it('notices a rewritten last line through the head', async () => {
    const lines = await writeLog(3);
    lines[2] = lines[2]!.replace('echo step 3', 'echo step X');
    rewrite(lines);
    expect(await verifyAuditLog(file, headFile)).toMatchObject({ ok: false, line: 3, problem: expect.stringContaining('not the entry recorded') });
  });

  it('accepts a head one entry behind (a crash between writing the line and the head)', async () => {
    const lines = await writeLog(3);
    writeFileSync(headFile, JSON.stringify({ seq: 2, hash: hashLine(lines[1]!) }));
    expect(await verifyAuditLog(file, headFile)).toEqual({ ok: true, lines: 3 });
  });

  it('names bad JSON, missing fields, empty lines and a damaged head', async () => {
    const lines = await writeLog(4);
    rewrite([lines[0]!, 'not json', ...lines.slice(2)]);
    expect(await verifyAuditLog(file)).toMatchObject({ ok: false, line: 2, problem: 'not valid JSON' });
    rewrite([lines[0]!, lines[1]!.replace(/"event":"[a-z]+",/, ''), ...lines.slice(2)]);
    expect(await verifyAuditLog(file)).toMatchObject({ ok: false, line: 2, problem: 'missing field "event"' });
    rewrite([lines[0]!, '', ...lines.slice(1)]);
    expect(await verifyAuditLog(file)).toMatchObject({ ok: false, line: 2, problem: 'empty line' });
    rewrite(lines);
    writeFileSync(headFile, 'garbage');
    expect(await verifyAuditLog(file, headFile)).toMatchObject({ ok: false, problem: expect.stringContaining('not a valid audit head') });
  });

  it('treats a missing log as intact unless the head says entries were written', async () => {
    expect(await verifyAuditLog(file, headFile)).toEqual({ ok: true, lines: 0 });
    await writeLog(2);
    rmSync(file);
    expect(await verifyAuditLog(file, headFile)).toMatchObject({ ok: false, line: 1, problem: expect.stringContaining('missing') });
  });

  it('hashes exact bytes: a carriage return added to a line is an edit', async () => {
    const lines = await writeLog(4);
    lines[1] = `${lines[1]}\r`;
    rewrite(lines);
    expect(await verifyAuditLog(file, headFile)).toMatchObject({ ok: false, line: 2 });
  });

  it('streams a log of 100,000 lines', async () => {
    const out: string[] = [];
    let prev = GENESIS_HASH;
    for (let seq = 1; seq <= 100_000; seq++) {
      const line = formatAuditLine(seq, '2025-01-01T00:00:00.000Z', prev, { event: 'executed', command: `echo ${seq}`, exitCode: 0 });
      out.push(line);
      prev = hashLine(line);
    }
    rewrite(out);
    expect(await verifyAuditLog(file)).toEqual({ ok: true, lines: 100_000 });
  });
});
