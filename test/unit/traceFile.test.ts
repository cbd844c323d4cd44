import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseArguments, USAGE } from '../../src/main/cli/arguments';
import { parseTraceArguments, runTraceCommand } from '../../src/main/cli/traceCommand';
import { readSpanRecords } from '../../src/main/telemetry/traceFile';
import { findTrace, summarizeTrace, traceTree } from '../../src/main/telemetry/traceTree';

const T1 = '1'.repeat(32);
const T2 = '12' + 'a'.repeat(30);
const span = (over: Record<string, unknown>) =>
  JSON.stringify({ trace_id: T1, parent_span: null, name: 'invoke_agent', pid: 10, host: 'h', start: '2026-11-28T10:00:00.000Z', end: '2026-11-28T10:00:05.000Z', duration_ms: 5000, status: 'ok', attributes: {}, ...over });

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function file(lines: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-traces-'));
  dirs.push(dir);
  const path = join(dir, 'traces.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

const ROOT = span({ span_id: 'a'.repeat(16), result: 'success', tokens_in: 30, tokens_out: 7, instruction: 'say hi' });
const CHAT = span({ span_id: 'b'.repeat(16), parent_span: 'a'.repeat(16), name: 'chat m', start: '2026-11-28T10:00:00.100Z', tokens_in: 30, tokens_out: 7, attributes: { 'gen_ai.operation.name': 'chat' } });
const STEP = span({ span_id: 'c'.repeat(16), parent_span: 'a'.repeat(16), name: 'execute_tool run_command', start: '2026-11-28T10:00:01.000Z', exit: 0, attributes: { 'gen_ai.operation.name': 'execute_tool', 'tandem.step.status': 'done' } });
const DENIED = span({ span_id: 'd'.repeat(16), parent_span: 'a'.repeat(16), name: 'execute_tool run_command', start: '2026-11-28T10:00:02.000Z', attributes: { 'gen_ai.operation.name': 'execute_tool', 'tandem.step.status': 'denied' } });
const CHILD = span({ span_id: 'e'.repeat(16), parent_span: 'c'.repeat(16), pid: 11, start: '2026-11-28T10:00:01.500Z', result: 'failed', status: 'error' });
const CHILD_CHAT = span({ span_id: 'f'.repeat(16), parent_span: 'e'.repeat(16), pid: 11, name: 'chat m', start: '2026-11-28T10:00:01.600Z', tokens_in: 5, tokens_out: 2, attributes: { 'gen_ai.operation.name': 'chat' } });

describe('traces.jsonl reading', () => {
  it('skips and counts lines that are not spans, and keeps only spans that ended since', async () => {
    const path = file([ROOT, '{"trace_id": "cut sh', 'not json at all', JSON.stringify({ trace_id: T1 }), span({ span_id: '9'.repeat(16), trace_id: T2, end: '2026-11-01T00:00:00.000Z' })]);
    const all = await readSpanRecords(path);
    expect(all.records.map((record) => record.span_id)).toEqual(['a'.repeat(16), '9'.repeat(16)]);
    expect(all).toMatchObject({ corrupt: 3, firstCorruptLine: 2 });
    const recent = await readSpanRecords(path, { since: Date.parse('2026-11-20T00:00:00Z') });
    expect(recent.records.map((record) => record.span_id)).toEqual(['a'.repeat(16)]);
    await expect(readSpanRecords(join(path, '..', 'missing.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('parses the trace command line (--since as tandem usage takes it: sinceOption.ts)', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    expect(parseTraceArguments(['list', '--since', '2w'], now)).toMatchObject({ kind: 'list', since: now - 14 * 86_400_000 });
    expect(parseTraceArguments(['list', '--since', '7'], now)).toMatchObject({ kind: 'error', message: expect.stringContaining('--since takes') });
    expect(parseTraceArguments(['list', '--since', 'soon'])).toMatchObject({ kind: 'error' });
    expect(parseTraceArguments(['show'])).toMatchObject({ kind: 'error' });
    expect(parseTraceArguments(['show', 'abc', '--json'])).toEqual({ kind: 'show', traceId: 'abc', json: true, files: [] });
    expect(parseTraceArguments(['show', 'not-hex'])).toMatchObject({ kind: 'error' });
    expect(parseTraceArguments(['list', 'abc'])).toMatchObject({ kind: 'error', message: expect.stringContaining('tandem trace show abc') });
    expect(parseArguments(['trace', 'list', '--json'])).toEqual({ kind: 'trace', argv: ['list', '--json'] });
    expect(USAGE).toContain('tandem trace show TRACE-ID');
  });
});

describe('trace trees', () => {
  const records = [ROOT, CHAT, STEP, DENIED, CHILD, CHILD_CHAT].map((line) => JSON.parse(line));

  it('hangs each span under its parent, marks a child process, and sums the trace', () => {
    const [root, ...more] = traceTree(records);
    expect(more).toHaveLength(0);
    expect(root!.children.map((node) => node.record.span_id)).toEqual(['b'.repeat(16), 'c'.repeat(16), 'd'.repeat(16)]);
    const child = root!.children[1]!.children[0]!;
    expect(child).toMatchObject({ otherProcess: true, record: { pid: 11 } });
    expect(child.children[0]).toMatchObject({ otherProcess: false });
    expect(summarizeTrace(T1, records)).toEqual({
      traceId: T1,
      start: '2026-11-28T10:00:00.000Z',
      durationMs: 5000,
      result: 'success',
      steps: 2,
      notRun: 1,
      tokensIn: 35,
      tokensOut: 9,
      processes: 2,
      instruction: 'say hi',
    });
  });

  it('shows a span caught in a parent cycle as a root instead of losing it', () => {
    const a = JSON.parse(span({ span_id: '1'.repeat(16), parent_span: '2'.repeat(16) }));
    const b = JSON.parse(span({ span_id: '2'.repeat(16), parent_span: '1'.repeat(16) }));
    const roots = traceTree([a, b]);
    const seen = (nodes: typeof roots): number => nodes.reduce((n, node) => n + 1 + seen(node.children), 0);
    expect(seen(roots)).toBe(2);
  });

  it('finds a trace by a unique prefix, and says when a prefix is ambiguous or unknown', () => {
    expect(findTrace([T1, T2], '11')).toEqual({ kind: 'found', traceId: T1 });
    expect(findTrace([T1, T2], '1')).toEqual({ kind: 'ambiguous', matches: [T1, T2] });
    expect(findTrace([T1, T2], 'ff')).toEqual({ kind: 'unknown' });
    expect(findTrace([T1, T2], T1.toUpperCase())).toEqual({ kind: 'found', traceId: T1 });
  });
});

describe('tandem trace (in process)', () => {
  it('prints the tree, errors clearly, and never fails on a corrupt line', async () => {
    const path = file([ROOT, CHAT, 'garbage', STEP, DENIED, CHILD, CHILD_CHAT, span({ trace_id: T2, span_id: '9'.repeat(16) })]);
    const shown = await runTraceCommand(['show', '11', '--file', path], {});
    expect(shown.exitCode).toBe(0);
    expect(shown.stderr).toContain('skipped 1 line');
    expect(shown.stdout).toContain(`trace ${T1}`);
    expect(shown.stdout).toMatch(/│ {2}└─ invoke_agent .*child agent, pid 11 on h/);
    expect(shown.stdout).toMatch(/└─ execute_tool run_command .*denied/);
    expect(await runTraceCommand(['show', '1', '--file', path], {})).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('start of 2 traces') });
    expect(await runTraceCommand(['show', 'ffff', '--file', path], {})).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('no trace ffff') });
    expect(await runTraceCommand(['show', 'ffff', '--file', `${path}.none`], {})).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('does not exist yet') });
    expect(await runTraceCommand(['list', '--bogus'], {})).toMatchObject({ exitCode: 2 });

    // Files from two hosts read together make one tree: the child's spans hang under the parent's step.
    const parentHost = file([ROOT, CHAT, STEP]);
    const childHost = file([CHILD.replace('"host":"h"', '"host":"remote"'), CHILD_CHAT.replace('"host":"h"', '"host":"remote"')]);
    const joined = await runTraceCommand(['show', T1, '--json', '--file', parentHost, '--file', childHost], {});
    const tree = JSON.parse(joined.stdout) as { spans: { children: { children: { host: string; other_process: boolean }[] }[] }[]; processes: number };
    expect(tree.spans).toHaveLength(1);
    expect(tree.spans[0]!.children[1]!.children[0]).toMatchObject({ host: 'remote', other_process: true });
    expect(tree.processes).toBe(2);
  });
});
