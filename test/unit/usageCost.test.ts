import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DailySpend } from '../../src/main/agent/dailySpend';
import { costUsd, priceOf, PRICES_AS_OF } from '../../src/main/agent/modelPrices';
import { readUsageEntries, usageEntryOf, type UsageEntry } from '../../src/main/telemetry/usageLedger';
import { localDay, usageReport, usageTable } from '../../src/main/telemetry/usageReport';
import { parseSince } from '../../src/main/telemetry/sinceOption';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-usage-'));
  dirs.push(dir);
  const file = join(dir, 'traces.jsonl');
  writeFileSync(file, text);
  return file;
}

/** A `chat {model}` span line as the JSONL sink writes it. */
function chatLine(options: { start: Date; model: string; source?: string; input: number; output: number; cost?: number; pid?: number; host?: string }): string {
  return JSON.stringify({
    trace_id: 'a'.repeat(32),
    span_id: 'b'.repeat(16),
    parent_span: null,
    name: `chat ${options.model}`,
    pid: options.pid ?? 4242,
    host: options.host ?? 'elsewhere',
    start: options.start.toISOString(),
    end: options.start.toISOString(),
    duration_ms: 5,
    status: 'ok',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': options.model,
      'gen_ai.usage.input_tokens': options.input,
      'gen_ai.usage.output_tokens': options.output,
      ...(options.source ? { 'tandem.source': options.source } : {}),
      ...(options.cost !== undefined ? { 'tandem.cost_usd': options.cost } : {}),
    },
  });
}

const entry = (overrides: Partial<UsageEntry>): UsageEntry => ({ at: new Date(2026, 10, 20, 12), model: 'claude-sonnet-5-5', source: 'panel', inputTokens: 0, outputTokens: 0, costUsd: 0, pid: 1, host: 'h', ...overrides });

describe('the price table', () => {
  it('prices a known family per million tokens, and has a date', () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(priceOf('claude-haiku-4-5')).toEqual({ family: 'claude-haiku-4+', input: 1, output: 5 });
    expect(costUsd('claude-sonnet-5-5', { inputTokens: 2_000_000, outputTokens: 100_000 })).toBeCloseTo(6 + 1.5);
    expect(costUsd('gpt-4o-mini', { inputTokens: 1_000_000, outputTokens: 0 })).toBeCloseTo(0.15);
  });

  it('says unknown for a model it has no price for, instead of guessing', () => {
    expect(priceOf('llama3.1:8b')).toBeUndefined();
    expect(costUsd('llama3.1:8b', { inputTokens: 1_000, outputTokens: 1_000 })).toBeUndefined();
    // A Claude model of a family the table does not price is not guessed from its neighbours.
    expect(costUsd('claude-instant-9', { inputTokens: 1, outputTokens: 1 })).toBeUndefined();
  });
});

describe('--since', () => {
  const now = new Date(2026, 10, 29, 12, 0, 0);
  it('takes days, hours, minutes back from now, or an ISO date (local midnight) or date-time', () => {
    expect(parseSince('7d', now)).toEqual(new Date(now.getTime() - 7 * 86_400_000));
    expect(parseSince('24h', now)).toEqual(new Date(now.getTime() - 24 * 3_600_000));
    expect(parseSince('30m', now)).toEqual(new Date(now.getTime() - 30 * 60_000));
    expect(parseSince('2w', now)).toEqual(new Date(now.getTime() - 14 * 86_400_000));
    expect(parseSince('2026-11-01', now)).toEqual(new Date(2026, 10, 1));
    expect(parseSince('2026-11-01T10:00:00Z', now)).toEqual(new Date(Date.UTC(2026, 10, 1, 10)));
  });

  it('refuses anything else with the forms it takes', () => {
    for (const bad of ['7', 'd7', 'yesterday', '2026-02-30', '', '-3d', '7y']) {
      const parsed = parseSince(bad, now);
      expect(parsed, bad).not.toBeInstanceOf(Date);
      expect((parsed as { error: string }).error).toContain('7d, 24h or 30m');
    }
  });
});

describe('the usage ledger and report', () => {
  it('reads chat spans only, skips broken lines and requests without tokens, and keeps those since the date', async () => {
    const day = new Date(2026, 10, 20, 9);
    const file = tempFile(
      [
        chatLine({ start: day, model: 'claude-sonnet-5-5', source: 'panel', input: 100, output: 10, cost: 0.00045 }),
        '{"trace_id":"cut short',
        JSON.stringify({ name: 'invoke_agent', start: day.toISOString(), attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 10 } }),
        JSON.stringify({ name: 'chat x', start: day.toISOString(), status: 'error', attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'x' } }),
        chatLine({ start: new Date(2026, 10, 1), model: 'claude-sonnet-5-5', input: 1, output: 1 }),
        chatLine({ start: day, model: 'llama3.1', source: 'headless', input: 7, output: 3 }),
        '',
      ].join('\n'),
    );
    const entries = await readUsageEntries(file, { since: new Date(2026, 10, 15) });
    expect(entries?.map((entry) => [entry.model, entry.source, entry.inputTokens, entry.costUsd])).toEqual([
      ['claude-sonnet-5-5', 'panel', 100, 0.00045],
      ['llama3.1', 'headless', 7, undefined],
    ]);
    expect(await readUsageEntries(join(file, '..', 'missing.jsonl'), { since: new Date(0) })).toBeUndefined();
  });

  it('prices a span written before costs were recorded from the table; a source it lacks is "unknown"', () => {
    const parsed = usageEntryOf(chatLine({ start: new Date(), model: 'claude-haiku-4-5', input: 1_000_000, output: 0 }));
    expect(parsed).toMatchObject({ costUsd: 1, source: 'unknown' });
  });

  it('sums per day, model and source; unknown costs are counted, not guessed', () => {
    const monday = new Date(2026, 10, 16, 10);
    const tuesday = new Date(2026, 10, 17, 23, 30);
    const report = usageReport(
      [
        entry({ at: monday, model: 'claude-sonnet-5-5', source: 'panel', inputTokens: 100, outputTokens: 10, costUsd: 0.5 }),
        entry({ at: monday, model: 'claude-haiku-4-5', source: 'summarizer', inputTokens: 50, outputTokens: 5, costUsd: 0.25 }),
        entry({ at: tuesday, model: 'llama3.1', source: 'headless', inputTokens: 7, outputTokens: 3, costUsd: undefined }),
        entry({ at: tuesday, model: 'claude-sonnet-5-5', source: 'headless', inputTokens: 1, outputTokens: 1, costUsd: 1 }),
      ],
      new Date(2026, 10, 10),
    );
    expect(report.total).toEqual({ requests: 4, input_tokens: 158, output_tokens: 19, cost_usd: 1.75, cost_unknown_requests: 1 });
    expect(report.by_day).toEqual([
      { day: '2026-11-16', requests: 2, input_tokens: 150, output_tokens: 15, cost_usd: 0.75, cost_unknown_requests: 0 },
      { day: '2026-11-17', requests: 2, input_tokens: 8, output_tokens: 4, cost_usd: 1, cost_unknown_requests: 1 },
    ]);
    expect(report.by_model.find((row) => row.model === 'llama3.1')).toEqual({ model: 'llama3.1', requests: 1, input_tokens: 7, output_tokens: 3, cost_usd: null, cost_unknown_requests: 1 });
    expect(report.by_source.map((row) => [row.source, row.cost_usd])).toEqual([
      ['headless', 1],
      ['panel', 0.5],
      ['summarizer', 0.25],
    ]);
    const table = usageTable(report);
    expect(table).toMatch(/llama3\.1\s+1\s+7\s+3\s+cost unknown/);
    expect(table).toMatch(/Total\s+4\s+158\s+19\s+\$1\.7500 \+ unknown/);
    expect(table).toContain('Cost unknown for 1 request(s)');
  });

  it('groups by the local day', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});

describe('the daily budget', () => {
  const today = new Date();

  it('counts what other processes spent today, not yesterday, and this process once', async () => {
    const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1, 12);
    const file = tempFile(
      [
        chatLine({ start: yesterday, model: 'claude-sonnet-5-5', input: 0, output: 0, cost: 5 }),
        chatLine({ start: today, model: 'claude-sonnet-5-5', input: 0, output: 0, cost: 0.25 }),
        // This process's own span, already flushed: counted through `record` instead.
        chatLine({ start: new Date(Date.now() + 1000), model: 'claude-sonnet-5-5', input: 0, output: 0, cost: 0.5, pid: process.pid, host: hostname() }),
      ].join('\n'),
    );
    let limit = 1;
    const spend = new DailySpend({ limitUsd: () => limit, traceFile: () => file });
    spend.record('claude-sonnet-5-5', { inputTokens: 0, outputTokens: 100_000 });
    await spend.refresh();
    expect(spend.todayUsd).toBeCloseTo(0.25 + 1.5);
    const refusal = spend.refusal();
    expect(refusal).toContain("today's model spend is $1.75");
    expect(refusal).toContain('daily budget of $1.00 ([ai] daily_budget_usd)');
    expect(refusal).toContain('raise daily_budget_usd in the [ai] section');
    limit = 2;
    expect(spend.refusal()).toBeUndefined();
    limit = 0;
    expect(spend.refusal()).toBeUndefined();
  });

  it('reads only what was appended since, a line still being written once it is whole, and all again after a trim', async () => {
    const line = (cost: number) => chatLine({ start: today, model: 'claude-sonnet-5-5', input: 0, output: 0, cost });
    const file = tempFile(`${line(0.25)}\n`);
    const spend = new DailySpend({ limitUsd: () => 10, traceFile: () => file });
    await spend.refresh();
    expect(spend.todayUsd).toBeCloseTo(0.25);
    const half = line(0.5);
    appendFileSync(file, half.slice(0, 40));
    await spend.refresh();
    expect(spend.todayUsd).toBeCloseTo(0.25);
    appendFileSync(file, `${half.slice(40)}\n`);
    await spend.refresh();
    expect(spend.todayUsd).toBeCloseTo(0.75);
    writeFileSync(file, `${line(1)}\n`);
    await spend.refresh();
    expect(spend.todayUsd).toBeCloseTo(1);
  });

  it('does not count models without a price, and with telemetry off counts this process only', async () => {
    const file = tempFile(`${chatLine({ start: today, model: 'claude-sonnet-5-5', input: 0, output: 0, cost: 3 })}\n`);
    const spend = new DailySpend({ limitUsd: () => 1, traceFile: () => undefined });
    spend.record('llama3.1', { inputTokens: 10_000_000, outputTokens: 10_000_000 });
    await spend.refresh();
    expect(spend.todayUsd).toBe(0);
    expect(spend.refusal()).toBeUndefined();
    const withFile = new DailySpend({ limitUsd: () => 1, traceFile: () => file });
    await withFile.refresh();
    expect(withFile.refusal()).toContain('$3.00');
  });
});
