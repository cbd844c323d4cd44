import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { DailyBudgetView } from '../../shared/conversationView';
import { readUsageFrom } from '../telemetry/usageLedger';
import { localDay } from '../telemetry/usageReport';
import { costUsd } from './modelPrices';

export interface DailySpendOptions {
  /** `[ai] daily_budget_usd` as set now; 0 means none. */
  limitUsd(): number;
  /** The traces file other processes' requests are read from; undefined while telemetry is off (this process's spend only). */
  traceFile(): string | undefined;
  now?(): Date;
}

/**
 * Today's spend (local day) against `[ai] daily_budget_usd`: what the traces file says every
 * process spent today, with this process's own requests counted here as they end (whether
 * or not their spans are written yet). Requests to models without a price are not counted.
 */
export class DailySpend {
  private readonly startedAt = new Date();
  private readonly host = hostname();
  private own = { day: '', usd: 0 };
  private others: { day: string; usd: number; file: string | undefined; endByte: number } = { day: '', usd: 0, file: undefined, endByte: 0 };
  /** Models this process asked that have no price: the budget cannot count them (the panel and the stream say so once). */
  private readonly unpriced = new Set<string>();

  constructor(private readonly options: DailySpendOptions) {}

  /** A request's tokens, priced at the model that answered. */
  record(model: string, usage: { inputTokens: number; outputTokens: number }): void {
    const cost = costUsd(model, usage);
    if (cost === undefined) {
      this.unpriced.add(model);
      return;
    }
    const day = localDay(this.now());
    if (this.own.day !== day) this.own = { day, usd: 0 };
    this.own.usd += cost;
  }

  /**
   * Reads what the other processes spent today from the traces file (only when a budget is
   * set): what was appended since the last read, or the whole file on a new day or after it
   * was trimmed.
   */
  async refresh(): Promise<void> {
    const file = this.options.traceFile();
    const now = this.now();
    const day = localDay(now);
    if (this.options.limitUsd() <= 0 || !file) {
      this.others = { day, usd: 0, file: undefined, endByte: 0 };
      return;
    }
    const size = await stat(file).then((stats) => stats.size, () => 0);
    if (this.others.day !== day || this.others.file !== file || size < this.others.endByte) this.others = { day, usd: 0, file, endByte: 0 };
    const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
    const read = await readUsageFrom(file, midnight, this.others.endByte).catch(() => undefined);
    if (!read) return;
    // This process's own spans are counted in `own` already, flushed or not.
    const others = read.entries.filter((entry) => !(entry.pid === process.pid && entry.host === this.host && entry.at >= this.startedAt));
    this.others.usd += others.reduce((total, entry) => total + (entry.costUsd ?? 0), 0);
    this.others.endByte = read.endByte;
  }

  /** Today's spend in USD, as last refreshed. */
  get todayUsd(): number {
    const day = localDay(this.now());
    return (this.own.day === day ? this.own.usd : 0) + (this.others.day === day ? this.others.usd : 0);
  }

  /** While a budget is set: today's spend against it, and the models it cannot count. */
  view(): DailyBudgetView | undefined {
    const limitUsd = this.options.limitUsd();
    if (limitUsd <= 0) return undefined;
    return { spentUsd: this.todayUsd, limitUsd, unpriced: [...this.unpriced] };
  }

  /** Why no new request may go out: today's spend reached the budget. */
  refusal(): string | undefined {
    const limit = this.options.limitUsd();
    const spent = this.todayUsd;
    if (limit <= 0 || spent < limit) return undefined;
    return (
      `Stopped: today's model spend is ${dollars(spent)}, which reaches the daily budget of ${dollars(limit)} ([ai] daily_budget_usd). ` +
      'No new request is sent until tomorrow (local time); raise daily_budget_usd in the [ai] section of the settings (0 means no limit) to go on now.'
    );
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}

/** Cents, or finer for amounts under a cent (a budget of $0.005 must not read as $0.01). */
function dollars(amount: number): string {
  return `$${amount.toFixed(amount > 0 && amount < 0.01 ? 4 : 2)}`;
}
