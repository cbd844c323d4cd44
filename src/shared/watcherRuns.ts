import { z } from 'zod';
import type { ChildAgentView } from './planViews';

/**
 * What a watcher's firing does, over the protocol (docs/watchers.md "What a firing does"):
 * a `notify` firing waits as a card until Run or Dismiss; an `ask`/`auto` run (and a notify
 * card's Run) is a child agent in the watcher's own shell, shown as a card whose asking steps
 * are answered here.
 */
const firingId = z.string().min(1).max(64);

export const WatcherRunRequestSchemas = {
  /** The cards the engine keeps (notify firings not yet run or dismissed, runs until closed): asked for on each (re)connection. */
  'watchers.cards': z.object({}).strict(),
  /** A notify card's Run: the firing starts its run (as `ask`). */
  'watchers.run': z.object({ firingId }).strict(),
  /** A notify card's Dismiss, or a finished run's card closed: the firing is dropped. */
  'watchers.dismiss': z.object({ firingId }).strict(),
  /** A decision on a step of a watcher run that waits. */
  'watchers.answer': z
    .object({
      firingId,
      requestId: z.string().min(1).max(100),
      decision: z.enum(['allow', 'allow_session', 'deny']),
      note: z.string().max(2000).optional(),
    })
    .strict(),
} as const;

/** A card in the panel: a notify firing waiting for Run / Dismiss (or, after Run, for a free run slot), or a run. */
export interface WatcherCardView {
  firingId: string;
  name: string;
  action: 'notify' | 'ask' | 'auto';
  reason: string;
  run?: ChildAgentView;
  /** Run was pressed, but the watcher runs at once (this many) are all going: it starts when one ends. */
  waitsForSlot?: { limit: number };
}

export interface WatcherRunResults {
  'watchers.cards': { cards: WatcherCardView[] };
  'watchers.run': Record<string, never>;
  'watchers.dismiss': Record<string, never>;
  'watchers.answer': Record<string, never>;
}

export interface WatcherRunEvents {
  /** A watcher run changed (started, a step, a step that asks, its end); `run` is null once the card goes. */
  'watcher.run': { firingId: string; name: string; action: 'notify' | 'ask' | 'auto'; reason: string; run: ChildAgentView | null };
  /** A notify card's Run waits for a free run slot (at most `limit` watcher runs at once); its `watcher.run` follows when it starts. */
  'watcher.waits-for-slot': { firingId: string; limit: number };
}
