import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { OfflineView } from '../../../shared/conversationView';
import { scrubSecrets } from '../../safety/secretScrubber';
import { writeFileAtomic } from '../../settings/atomicWrite';
import type { Conversation } from '../conversation/conversation';

/** Checks for a backend start this long after the instruction was queued, doubling each time … */
export const FIRST_CHECK_MS = 15_000;
/** … up to this. */
export const MAX_CHECK_MS = 5 * 60_000;

const SavedQueue = z.object({ version: z.literal(1), instructions: z.array(z.object({ text: z.string(), at: z.number() })) });
export type QueuedInstruction = z.infer<typeof SavedQueue>['instructions'][number];

export interface OfflineQueueHost {
  /** Where the queue is kept across restarts (`$XDG_STATE_HOME/tandem/queued.json`); undefined: not kept. */
  file?: string;
  conversation: Pick<Conversation, 'items' | 'hasQueued' | 'unanswered' | 'changed' | 'add' | 'queue'>;
  /** A request or the loop is running now: it is the check. */
  busy(): boolean;
  /** Runs the agent's loop (`resend`: the history already ends with what to send). */
  run(resend: boolean): void;
  /** The first wait between checks (tests shorten it). */
  firstCheckMs?: number;
  onError?(error: Error): void;
}

/**
 * §14.8: instructions no backend could answer, queued at the user's word, sent when one
 * answers again — checked when the user sends another message, on "Retry now", and on a
 * timer that backs off from FIRST_CHECK_MS to MAX_CHECK_MS. Kept in a file beside the session.
 */
export class OfflineQueue {
  private instructions: QueuedInstruction[] = [];
  private timer: NodeJS.Timeout | undefined;
  private checks = 0;
  private nextCheckAt: number | undefined;

  constructor(private readonly host: OfflineQueueHost) {}

  get active(): boolean {
    return this.instructions.length > 0;
  }

  /** What the panel shows while something is queued. */
  view(): OfflineView | undefined {
    if (!this.active) return undefined;
    return { instructions: this.instructions.map((instruction) => ({ ...instruction })), checks: this.checks, ...(this.nextCheckAt ? { nextCheckAt: this.nextCheckAt } : {}) };
  }

  /** The card's "Queue it", the bar's "Retry now" and "Discard". */
  act(action: 'queue' | 'retry' | 'discard'): void {
    if (action === 'queue') this.queueUnanswered();
    else if (action === 'retry') this.check();
    else this.discard();
  }

  /** The card's "Queue it": the instruction no backend answered waits for one. */
  queueUnanswered(): void {
    const card = [...this.host.conversation.items].reverse().find((item) => item.role === 'error');
    if (card?.role !== 'error' || !card.offerQueue || !this.host.conversation.unanswered) throw new Error('There is no instruction waiting for a backend to queue.');
    card.offerQueue = false;
    const asked = [...this.host.conversation.items].reverse().find((item) => item.role === 'user');
    this.add(asked?.role === 'user' ? asked.text : '');
  }

  /** A message sent while instructions are queued joins them (its request is a check). */
  add(text: string): void {
    this.instructions.push({ text, at: Date.now() });
    this.save();
    this.schedule();
    this.host.conversation.changed();
  }

  /** "Retry now", or the timer: what is queued goes out unless a request is running (then that one is the check). */
  check(): void {
    if (!this.active || this.host.busy()) return;
    const { conversation } = this.host;
    if (conversation.hasQueued) this.host.run(false);
    else if (conversation.unanswered) this.host.run(true);
    else this.delivered();
  }

  /** A previous run's queue comes back into the panel, to be sent at the first check. */
  restore(): void {
    const saved = this.read();
    if (saved.length === 0) return;
    for (const instruction of saved) {
      this.host.conversation.add({ id: randomUUID(), role: 'user', text: instruction.text, source: 'panel', attachments: [], at: instruction.at });
      this.host.conversation.queue([{ type: 'text', text: scrubSecrets(instruction.text).text }], true);
    }
    this.instructions = saved;
    this.schedule();
    this.host.conversation.changed();
  }

  /** A check found no backend: the next one waits longer. */
  checkFailed(): void {
    if (!this.active) return;
    this.checks++;
    this.schedule();
    this.host.conversation.changed();
  }

  /** A backend answered: what was queued has been sent. */
  delivered(): void {
    if (!this.active) return;
    this.clear();
  }

  /** "Discard": nothing more is sent on its own (the conversation keeps the messages; Retry still works). */
  discard(): void {
    this.clear();
  }

  private read(): QueuedInstruction[] {
    const file = this.host.file;
    if (!file || !existsSync(file)) return [];
    try {
      const parsed = SavedQueue.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (!parsed.success) throw new Error('it has an unknown format');
      return parsed.data.instructions;
    } catch (error) {
      this.host.onError?.(new Error(`The queued instructions in ${file} could not be read (${(error as Error).message}); they are left there.`));
      return [];
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private clear(): void {
    this.instructions = [];
    this.checks = 0;
    this.nextCheckAt = undefined;
    this.dispose();
    this.save();
    this.host.conversation.changed();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    const delay = Math.min(MAX_CHECK_MS, (this.host.firstCheckMs ?? FIRST_CHECK_MS) * 2 ** this.checks);
    this.nextCheckAt = Date.now() + delay;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.nextCheckAt = undefined;
      this.check();
    }, delay);
    this.timer.unref();
  }

  private save(): void {
    const file = this.host.file;
    if (!file) return;
    try {
      writeFileAtomic(file, `${JSON.stringify({ version: 1, instructions: this.instructions })}\n`);
    } catch (error) {
      this.host.onError?.(error as Error);
    }
  }
}
