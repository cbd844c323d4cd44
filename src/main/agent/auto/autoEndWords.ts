import { AUTO_STOPPER_WORDS, type AutoEnd } from '../../../shared/companion';
import { USER_CANCEL, type PlanStop } from '../plan/planEvents';

/** What the next request tells the model about a run that ended without its say-so; none when it said it was done. */
export function autoEndNote(task: string, end: AutoEnd): string | undefined {
  if (end.kind === 'done') return undefined;
  if (end.kind === 'stopped') return `[The user stopped the auto run of the task "${task}" with ${AUTO_STOPPER_WORDS[end.by]}. Do not continue it unless they ask.]`;
  return `[The auto run of the task "${task}" ended early: ${end.detail}. Do not continue it unless the user asks.]`;
}

/** How the run's plan is cancelled when the run ends: its cards and the model say what ended it. */
export function planStopFor(end: AutoEnd): PlanStop {
  switch (end.kind) {
    case 'done':
      return USER_CANCEL;
    case 'stopped': {
      const control = AUTO_STOPPER_WORDS[end.by];
      return {
        decider: { verdict: 'skipped', by: 'you', rule: control.replace('its banner', 'the auto banner') },
        detail: `auto run stopped (${control})`,
        reason: `the user stopped the auto run with ${control}`,
        ...(end.by === 'ctrl-c' ? { ctrlCSent: true } : {}),
      };
    }
    case 'limit':
    case 'failed':
      return {
        decider: { verdict: 'skipped', by: 'auto', rule: end.detail },
        detail: `auto run ended: ${end.detail}`,
        reason: `the auto run ended because ${end.detail}`,
      };
  }
}
