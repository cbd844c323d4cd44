import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashLine } from '../../src/main/safety/audit/auditEntry';
import { AuditLog } from '../../src/main/safety/audit/auditLog';
import { verifyAuditLog } from '../../src/main/safety/audit/auditVerify';
import { shellTimeout } from '../support/shellTimeout';
import { waitUntil } from '../support/waitUntil';

const root = fileURLToPath(new URL('../..', import.meta.url));
const appender = fileURLToPath(new URL('../support/auditAppender.ts', import.meta.url));
const PER_WRITER = 200;

let dir: string;
let file: string;
let headFile: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-audit-writers-'));
  file = join(dir, 'data', 'audit.jsonl');
  headFile = join(dir, 'data', 'audit.head');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Writer {
  child: ChildProcess;
  ready: Promise<void>;
  /** The errors the child's AuditLog reported, once it has written everything. */
  done: Promise<string[]>;
}

function startWriter(label: string): Writer {
  const child = spawn(process.execPath, ['--import', 'jiti/register', appender, file, headFile, String(PER_WRITER), label], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.startsWith('ready\n')) markReady();
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = once(child, 'exit').then(([code]) => {
    if (code !== 0) throw new Error(`writer ${label} exited with ${code}: ${stderr}`);
    const report = JSON.parse(stdout.split('\n')[1]!) as { errors: string[] };
    return report.errors;
  });
  // A writer that dies before it is ready must fail the test, not hang it.
  void done.catch(() => markReady());
  return { child, ready, done };
}

function go(writers: Writer[]): void {
  for (const writer of writers) writer.child.stdin!.end('go\n');
}

function entries(): { seq: number; prev: string; event: string; conversation?: string; step?: number }[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line));
}

/** Every writer's steps, in the order they were written, each complete and in its own order. */
function expectEachWriterWhole(labels: string[]): void {
  const written = entries();
  for (const label of labels) {
    expect(written.filter((entry) => entry.conversation === label).map((entry) => entry.step)).toEqual(Array.from({ length: PER_WRITER }, (_, i) => i + 1));
  }
  expect(written.filter((entry) => entry.event === 'tamper')).toEqual([]);
}

function expectHeadAtEnd(total: number): void {
  const lines = readFileSync(file, 'utf8').split('\n').slice(0, -1);
  expect(JSON.parse(readFileSync(headFile, 'utf8'))).toEqual({ seq: total, hash: hashLine(lines[total - 1]!) });
}

describe('several processes appending to one audit log', () => {
  it('three processes appending 200 entries each at the same time write one intact chain', async () => {
    const labels = ['app', 'agent-1', 'agent-2'];
    const writers = labels.map(startWriter);
    await Promise.all(writers.map((writer) => writer.ready));
    go(writers);
    const errors = await Promise.all(writers.map((writer) => writer.done));
    expect(errors.flat()).toEqual([]);
    expect(await verifyAuditLog(file, headFile)).toEqual({ ok: true, lines: 3 * PER_WRITER });
    expectEachWriterWhole(labels);
    expectHeadAtEnd(3 * PER_WRITER);
  }, shellTimeout(60_000));

  it('an AuditLog in this process and one in a child process interleave into one chain', async () => {
    const writer = startWriter('agent');
    await writer.ready;
    const errors: Error[] = [];
    const log = new AuditLog(file, headFile, { onError: (error) => errors.push(error) });
    const append = (step: number): Promise<void> => log.append({ event: 'approved', conversation: 'app', step, command: `echo app ${step}` });
    const firstHalf = Array.from({ length: PER_WRITER / 2 }, (_, i) => append(i + 1));
    go([writer]);
    // The rest only once the child is writing, so the two surely take turns on the file.
    await waitUntil(() => existsSync(file) && readFileSync(file, 'utf8').includes('"conversation":"agent"'), 'the child writing');
    const secondHalf = Array.from({ length: PER_WRITER / 2 }, (_, i) => append(PER_WRITER / 2 + i + 1));
    await Promise.all([...firstHalf, ...secondHalf]);
    expect(await writer.done).toEqual([]);
    expect(errors).toEqual([]);
    expect(await verifyAuditLog(file, headFile)).toEqual({ ok: true, lines: 2 * PER_WRITER });
    expectEachWriterWhole(['app', 'agent']);
    expectHeadAtEnd(2 * PER_WRITER);
  }, shellTimeout(60_000));
});
