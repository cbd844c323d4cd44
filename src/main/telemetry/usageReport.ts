import type { UsageEntry } from './usageLedger';

/** Tokens and cost of a group of requests; `cost_usd` is null when none of them has a known cost. */
export interface UsageSum {
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  /** Requests to models without a price: their cost is not in `cost_usd`. */
  cost_unknown_requests: number;
}

export interface UsageReport {
  since: string;
  total: UsageSum;
  by_day: (UsageSum & { day: string })[];
  by_model: (UsageSum & { model: string })[];
  by_source: (UsageSum & { source: string })[];
}

/** `tandem usage --json`: the requests summed in all, per local day, per model and per source. */
export function usageReport(entries: readonly UsageEntry[], since: Date): UsageReport {
  return {
    since: since.toISOString(),
    total: sum(entries),
    by_day: groups(entries, (entry) => localDay(entry.at)).map(([day, sums]) => ({ day, ...sums })),
    by_model: groups(entries, (entry) => entry.model).map(([model, sums]) => ({ model, ...sums })),
    by_source: groups(entries, (entry) => entry.source).map(([source, sums]) => ({ source, ...sums })),
  };
}

/** YYYY-MM-DD in local time. */
export function localDay(at: Date): string {
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

export function sum(entries: readonly UsageEntry[]): UsageSum {
  const total: UsageSum = { requests: 0, input_tokens: 0, output_tokens: 0, cost_usd: null, cost_unknown_requests: 0 };
  for (const entry of entries) {
    total.requests++;
    total.input_tokens += entry.inputTokens;
    total.output_tokens += entry.outputTokens;
    if (entry.costUsd === undefined) total.cost_unknown_requests++;
    else total.cost_usd = (total.cost_usd ?? 0) + entry.costUsd;
  }
  // Sums of prices per token carry float noise (0.1 + 0.2); a millionth of a dollar is plenty.
  if (total.cost_usd !== null) total.cost_usd = Math.round(total.cost_usd * 1e6) / 1e6;
  return total;
}

function groups(entries: readonly UsageEntry[], keyOf: (entry: UsageEntry) => string): [string, UsageSum][] {
  const byKey = new Map<string, UsageEntry[]>();
  for (const entry of entries) {
    const key = keyOf(entry);
    byKey.set(key, [...(byKey.get(key) ?? []), entry]);
  }
  return [...byKey.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, group]) => [key, sum(group)]);
}

/** The report as a readable table. */
export function usageTable(report: UsageReport): string {
  const header = ['', 'requests', 'input tokens', 'output tokens', 'cost (USD)'];
  const row = (label: string, sums: UsageSum): string[] => [label, String(sums.requests), sums.input_tokens.toLocaleString('en-US'), sums.output_tokens.toLocaleString('en-US'), costText(sums)];
  const sections: [string, string[][]][] = [
    ['By day', report.by_day.map((entry) => row(entry.day, entry))],
    ['By model', report.by_model.map((entry) => row(entry.model, entry))],
    ['By source', report.by_source.map((entry) => row(entry.source, entry))],
  ];
  const all = [header, row('Total', report.total), ...sections.flatMap(([, rows]) => rows)];
  const widths = header.map((_, column) => Math.max(...all.map((cells) => cells[column]!.length)));
  const line = (cells: string[]): string => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ').trimEnd();
  const out = [`Model usage since ${report.since}`, '', line(header), line(row('Total', report.total))];
  for (const [title, rows] of sections) out.push('', title, ...rows.map(line));
  if (report.total.cost_unknown_requests > 0) out.push('', `Cost unknown for ${report.total.cost_unknown_requests} request(s): their models have no price in Tandem's table.`);
  return out.join('\n');
}

function costText(sums: UsageSum): string {
  if (sums.cost_usd === null) return 'cost unknown';
  const known = `$${sums.cost_usd.toFixed(4)}`;
  return sums.cost_unknown_requests > 0 ? `${known} + unknown` : known;
}
