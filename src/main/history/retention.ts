import type { HistoryDatabase } from './historyDatabase';

/** `[history] max_days` and `max_mb`: records past either limit are deleted, oldest first. */
export interface RetentionSettings {
  maxDays?: number;
  maxMb?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const CHUNK = 500;
const MAX_SIZE_ROUNDS = 10;
export const RETENTION_EVERY_MS = 60 * 60 * 1000;

/**
 * Runs retention on the owner's database soon after it opens and then every hour, in chunks of
 * a few hundred deletes with a turn of the event loop between them, so requests keep being
 * served. `database` returns null once the owner has closed it, which ends a pass.
 */
export class RetentionSchedule {
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly settings: RetentionSettings,
    private readonly database: () => HistoryDatabase | null,
    private readonly report: (message: string) => void,
  ) {}

  start(): void {
    if (this.settings.maxDays === undefined && this.settings.maxMb === undefined) return;
    this.schedule(0);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => void this.pass(), delayMs);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await applyRetention(this.settings, this.database);
    } catch (error) {
      this.report(`History retention failed and will be tried again in an hour: ${(error as Error).message}`);
    } finally {
      this.running = false;
      if (this.timer) this.schedule(RETENTION_EVERY_MS);
    }
  }
}

/** One retention pass; returns how many records it deleted. */
export async function applyRetention(settings: RetentionSettings, database: () => HistoryDatabase | null, now = Date.now()): Promise<number> {
  let deleted = 0;
  if (settings.maxDays !== undefined) {
    const before = now - settings.maxDays * DAY_MS;
    for (let db = database(); db; db = database()) {
      const gone = db.deleteOlderThan(before, CHUNK);
      deleted += gone;
      if (gone < CHUNK) break;
      await nextTurn();
    }
    if (deleted) database()?.reclaim();
  }
  if (settings.maxMb !== undefined) deleted += await shrinkTo(settings.maxMb * 1024 * 1024, database);
  return deleted;
}

/** Deletes the oldest records until the pages in use fit the budget (estimating how many from the excess). */
async function shrinkTo(budget: number, database: () => HistoryDatabase | null): Promise<number> {
  let deleted = 0;
  for (let round = 0; round < MAX_SIZE_ROUNDS; round++) {
    const db = database();
    if (!db) break;
    const used = db.usedBytes();
    const records = db.stats().records;
    if (used <= budget || records === 0) break;
    let excess = Math.max(1, Math.ceil((records * (used - budget)) / used));
    while (excess > 0) {
      const gone = database()?.deleteOldest(Math.min(CHUNK, excess)) ?? 0;
      if (!gone) break;
      deleted += gone;
      excess -= gone;
      await nextTurn();
    }
    database()?.reclaim();
  }
  return deleted;
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
