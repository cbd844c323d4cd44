import { randomUUID } from 'node:crypto';
import type { ConversationItem, ConversationView, PlanView } from '../../../shared/agent';
import type { EngineLog } from '../../log/engineLog';
import type { AgentContent, AgentMessage } from '../backends/modelBackend';
import { modelFacts } from '../modelCatalog';
import { costUsd } from '../modelPrices';
import { withRecentImages } from '../vision/recentImages';
import { appendMessage, BROKE_OFF_MARK, fitHistory } from './conversationHistory';
import { compactHistory, type CompactionFacts } from './historyCompaction';
import { SentRequests } from './sentRequests';

export type AssistantItem = Extract<ConversationItem, { role: 'assistant' }>;
export type RetryItem = Extract<ConversationItem, { role: 'retry' }>;

/** What the view shows besides the conversation itself: the agent's state, model, budget and grants. */
export type ConversationSurroundings = Pick<ConversationView, 'status' | 'statusDetail' | 'backend' | 'model' | 'setupHint' | 'budget' | 'grants' | 'policyProblems' | 'auto' | 'offline' | 'dailyBudget'>;

export interface ConversationOptions {
  surroundings(): ConversationSurroundings;
  /** The panel's view of it. */
  emit(view: ConversationView): void;
  /** Where errors shown in the conversation are recorded too. */
  log?: Pick<EngineLog, 'error'>;
}

/**
 * One conversation with the model: the items the panel shows, the history the model is sent,
 * user content queued for the next request, the tokens used, and the request behind each
 * answer ("what was sent"). Its view goes to the panel at most once per turn of the event loop.
 */
export class Conversation {
  private currentId: string = randomUUID();
  private list: ConversationItem[] = [];
  private messages: AgentMessage[] = [];
  private usage = { inputTokens: 0, outputTokens: 0, contextTokens: 0 };
  /** Each request priced at its own model's list price when it was made; undefined until one had a known price. */
  private costUsd: number | undefined;
  /** A request was to a model without a price. */
  private costUnknown = false;
  /** User content waiting for the next request: queued messages, `! cmd` results, a plan's note. */
  private queued: AgentContent[] = [];
  private queuedMessages = 0;
  private readonly sent = new SentRequests();
  /** Where each item's exchange starts in the history (its length when the item was added). */
  private readonly historyIndex = new Map<string, number>();
  /** History messages the last request left out to fit the budget. */
  private droppedMessages = 0;
  /** What the last request sent as Tandem's summary of older turns; the next compaction cuts no earlier. */
  private compaction: CompactionFacts | undefined;
  /** The view due on the next timer turn, and who waits for it to go out. */
  private viewDue: { timer: NodeJS.Timeout; shown: (() => void)[] } | undefined;

  constructor(private readonly options: ConversationOptions) {}

  get id(): string {
    return this.currentId;
  }

  /** The panel's items as they are (not copied: read them, do not keep them). */
  get items(): readonly ConversationItem[] {
    return this.list;
  }

  add(item: ConversationItem): void {
    this.list.push(item);
    this.historyIndex.set(item.id, this.messages.length);
    this.changed();
  }

  remove(itemId: string): void {
    this.list = this.list.filter((item) => item.id !== itemId);
    this.historyIndex.delete(itemId);
  }

  /** An error for the user, recorded in the engine log unless it was already; a failed request's error offers Retry. */
  addError(text: string, options: { logged?: boolean; request?: { attempts: number; sentId?: string }; dailyBudget?: boolean; offerQueue?: boolean } = {}): void {
    if (!options.logged) this.options.log?.error('model', text);
    const request = options.request;
    this.add({
      id: randomUUID(),
      role: 'error',
      text,
      at: Date.now(),
      ...(request && { retryable: true, attempts: request.attempts, sentId: request.sentId }),
      ...(options.dailyBudget && { dailyBudget: true }),
      ...(options.offerQueue && { offerQueue: true }),
    });
  }

  /** Another request goes out: older failures are no longer the one Retry would send. */
  settleRetries(): void {
    for (const item of this.list) {
      if (item.role === 'error' && item.retryable) item.retryable = false;
    }
  }

  /** The history ends with the user's side: the last request got no answer (it failed or was cancelled before any text). */
  get unanswered(): boolean {
    return this.messages.at(-1)?.role === 'user';
  }

  /** The last answer broke off mid-stream (what arrived is in the history). */
  get lastAnswerBroke(): boolean {
    const last = this.messages.at(-1);
    const part = last?.role === 'assistant' ? last.content.at(-1) : undefined;
    return part?.type === 'text' && part.text.endsWith(BROKE_OFF_MARK);
  }

  /** A plan's card, added with its first step. */
  addPlan(plan: PlanView): void {
    this.add({ id: planItemId(plan.id), role: 'plan', plan, at: Date.now() });
  }

  /** The plan's card shows `plan` (while the card is there). */
  updatePlan(plan: PlanView): void {
    const item = this.list.find((candidate) => candidate.id === planItemId(plan.id));
    if (item?.role === 'plan') item.plan = plan;
    this.changed();
  }

  removePlan(planId: string): void {
    this.remove(planItemId(planId));
  }

  /** Content for the next request; `message` counts it as a queued message in the view. */
  queue(content: AgentContent[], message = false): void {
    this.queued.push(...content);
    if (message) this.queuedMessages++;
  }

  get hasQueued(): boolean {
    return this.queued.length > 0;
  }

  takeQueued(): AgentContent[] {
    const content = this.queued;
    this.queued = [];
    this.queuedMessages = 0;
    return content;
  }

  appendToHistory(role: AgentMessage['role'], content: AgentContent[]): void {
    appendMessage(this.messages, role, content);
  }

  /**
   * The history to send: only its newest images kept (withRecentImages), older turns folded
   * into Tandem's summary once it passes `compactAtTokens` (historyCompaction; 0: never), and
   * within `budgetTokens` (the budget counts what is sent). The view marks where what the
   * model sees whole begins.
   */
  historyWithin(budgetTokens: number, compactAtTokens = 0): AgentMessage[] {
    const recent = withRecentImages(this.messages);
    const compacted = compactAtTokens > 0 ? compactHistory(recent, compactAtTokens, this.compaction?.messages) : { messages: recent };
    const { messages, dropped } = fitHistory(compacted.messages, budgetTokens);
    const folded = compacted.facts?.messages ?? 0;
    // The summary's own message, when it is not joined to the first one kept whole.
    const summaryMessages = compacted.messages.length - (recent.length - folded);
    this.compaction = compacted.facts;
    this.droppedMessages = dropped === 0 ? 0 : folded + dropped - summaryMessages;
    return messages;
  }

  /** A request's tokens, priced at the model that answered it (a later switch of model does not reprice it). */
  countUsage(usage: { inputTokens: number; outputTokens: number }, model: string): void {
    this.usage.inputTokens += usage.inputTokens;
    this.usage.outputTokens += usage.outputTokens;
    const cost = costUsd(model, usage);
    if (cost !== undefined) this.costUsd = (this.costUsd ?? 0) + cost;
    else this.costUnknown = true;
  }

  /** A child agent's tokens and cost (as it reported them), counted in this conversation's totals. */
  countChildUsage(usage: { inputTokens: number; outputTokens: number; costUsd?: number }): void {
    this.usage.inputTokens += usage.inputTokens;
    this.usage.outputTokens += usage.outputTokens;
    if (usage.costUsd !== undefined) this.costUsd = (this.costUsd ?? 0) + usage.costUsd;
  }

  /** The estimated size of the last request. */
  set contextTokens(tokens: number) {
    this.usage.contextTokens = tokens;
  }

  keepSent(item: AssistantItem, body: object): void {
    this.sent.keep(item.id, body);
    item.sent = true;
    for (const old of this.list) if (old.role === 'assistant' && old.sent && !this.sent.has(old.id)) old.sent = false;
  }

  sentPayload(itemId: string): string {
    return this.sent.payload(itemId);
  }

  /** What a later run needs to go on with this conversation: its id and the model's history (scrubbed as it was kept). */
  savedHistory(): { id: string; messages: AgentMessage[] } {
    return { id: this.currentId, messages: this.messages.map((message) => ({ role: message.role, content: [...message.content] })) };
  }

  /** Goes on with a saved conversation (`tandem agent --session`): its id and history; the items shown start empty. */
  resume(saved: { id: string; messages: AgentMessage[] }): void {
    this.reset();
    this.currentId = saved.id;
    this.messages = saved.messages.map((message) => ({ role: message.role, content: [...message.content] }));
    this.changed();
  }

  /** A new conversation: everything but the view's surroundings starts empty. */
  reset(): void {
    this.currentId = randomUUID();
    this.list = [];
    this.messages = [];
    this.historyIndex.clear();
    this.droppedMessages = 0;
    this.compaction = undefined;
    this.takeQueued();
    this.usage = { inputTokens: 0, outputTokens: 0, contextTokens: 0 };
    this.costUsd = undefined;
    this.costUnknown = false;
    this.sent.clear();
    this.changed();
  }

  view(): ConversationView {
    const { status, statusDetail, backend, model, setupHint, budget, grants, policyProblems, auto, offline, dailyBudget } = this.options.surroundings();
    return {
      id: this.currentId,
      items: this.list.map((item) => (item.role === 'plan' ? { ...item, plan: item.plan } : { ...item })),
      status,
      statusDetail,
      backend,
      model,
      usage: {
        inputTokens: this.usage.inputTokens,
        outputTokens: this.usage.outputTokens,
        // Nothing priced yet: $0.00 for a model with a list price, no cost for one without (a local model).
        costUsd: this.costUsd ?? costUsd(model, { inputTokens: 0, outputTokens: 0 }),
        ...(this.costUnknown ? { costUnknown: true } : {}),
        contextTokens: this.usage.contextTokens,
        contextWindow: modelFacts(model).contextWindow,
      },
      setupHint,
      queued: this.queuedMessages,
      contextStartsAt: this.contextStart(),
      ...(this.compaction && this.droppedMessages === 0 ? { compaction: this.compactionView(this.compaction) } : {}),
      budget,
      grants,
      policyProblems,
      ...(auto ? { auto } : {}),
      ...(offline ? { offline } : {}),
      ...(dailyBudget ? { dailyBudget } : {}),
    };
  }

  private contextStart(): string | undefined {
    if (this.droppedMessages === 0) return undefined;
    return this.firstItemFrom(this.droppedMessages);
  }

  private compactionView({ messages, turns, fromTokens, toTokens }: CompactionFacts): ConversationView['compaction'] {
    return { startsAt: this.firstItemFrom(messages), turns, fromTokens, toTokens };
  }

  /** The first item whose exchange starts at or after history message `index`. */
  private firstItemFrom(index: number): string | undefined {
    return this.list.find((item) => (this.historyIndex.get(item.id) ?? 0) >= index)?.id;
  }

  /**
   * The panel's view goes out once per turn of the event loop, after pending I/O: the view
   * grows with the conversation (about 1.3 ms to build after 20 plans), and a step's block
   * starting must not hold up the typed command's echo behind it.
   */
  changed(): void {
    if (this.viewDue) return;
    const due = {
      shown: [] as (() => void)[],
      timer: setTimeout(() => {
        this.viewDue = undefined;
        this.options.emit(this.view());
        for (const resolve of due.shown) resolve();
      }, 0),
    };
    this.viewDue = due;
  }

  /** Resolves once the panel has the view with every change made so far (at once when none waits). */
  shown(): Promise<void> {
    const due = this.viewDue;
    return due ? new Promise((resolve) => due.shown.push(resolve)) : Promise.resolve();
  }

  dispose(): void {
    if (this.viewDue) clearTimeout(this.viewDue.timer);
    for (const resolve of this.viewDue?.shown ?? []) resolve();
    this.viewDue = undefined;
  }
}

function planItemId(planId: string): string {
  return `plan-${planId}`;
}
