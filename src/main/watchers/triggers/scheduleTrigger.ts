import { Cron } from 'croner';
import type { TriggerEvent } from '../firing/firingGate';
import type { ScheduleWatcher } from '../watcherSchema';

export interface ScheduleTrigger {
  /** The next run (epoch ms), for the watcher list. */
  nextRun(): number | undefined;
  dispose(): void;
}

/** A schedule watcher's trigger: croner fires at each time the cron expression names, in its timezone (default: the system's). */
export function startScheduleTrigger(rule: Pick<ScheduleWatcher, 'cron' | 'timezone'>, emit: (event: TriggerEvent) => void): ScheduleTrigger {
  const cron = new Cron(rule.cron, { ...(rule.timezone ? { timezone: rule.timezone } : {}), unref: true }, () => {
    const at = new Date().toISOString();
    emit({ reason: `scheduled (${rule.cron}) at ${at}`, details: `The schedule \`${rule.cron}\`${rule.timezone ? ` (${rule.timezone})` : ''} came due at ${at}.` });
  });
  return {
    nextRun: () => cron.nextRun()?.getTime(),
    dispose: () => cron.stop(),
  };
}

/** The next `count` times a cron expression names after `from` (`tandem watchers test`). */
export function nextRuns(rule: Pick<ScheduleWatcher, 'cron' | 'timezone'>, count: number, from = new Date()): Date[] {
  const cron = new Cron(rule.cron, { paused: true, ...(rule.timezone ? { timezone: rule.timezone } : {}) });
  try {
    return cron.nextRuns(count, from);
  } finally {
    cron.stop();
  }
}
