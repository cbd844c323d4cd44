import { randomUUID } from 'node:crypto';
import type { AgentEvents } from '../../shared/agent';
import type { BackendView, FallbackItem } from '../../shared/conversationView';
import type { Settings } from '../../shared/settings';
import { estimateTokens } from '../context/tokenEstimate';
import type { AgentMessage, ModelResult } from './backends/modelBackend';
import type { Conversation } from './conversation/conversation';
import { DailySpend } from './dailySpend';
import { BROKE_OFF_MARK, estimateMessagesTokens } from './conversation/conversationHistory';
import { modelFacts } from './modelCatalog';
import { NO_MODEL, type ModelChoice, type ModelConnection } from './modelConnection';
import { describeConnection, type FallbackStep } from './modelFallback';
import type { OfflineQueue } from './offline/offlineQueue';
import { ModelTurn, type TurnEnd } from './modelTurn';
import type { StandingContextCache } from './standingContextCache';
import { SYSTEM_PROMPT } from './systemPrompt';
import type { AgentTracing } from '../telemetry/agentTracing';
import type { Tracer } from '../telemetry/tracer';
import type { TokenBudget } from './tokenBudget';
import type { ToolDispatcher } from './tools/toolDispatcher';

/** How a cancelled partial answer ends in the history the model is sent. */
const CANCELLED_MARK = '[The user cancelled this answer here.]';

export interface ModelRequestsHost {
  conversation: Conversation;
  models: ModelChoice;
  budget: TokenBudget;
  /** Why no request may go now (a `tandem agent` run's budget, shared with its child agents, is spent); undefined: they may. */
  refusal?(): string | undefined;
  tools: Pick<ToolDispatcher, 'toolUse' | 'definitions' | 'responseComplete' | 'responseDropped'>;
  standing: StandingContextCache;
  settings(): Settings;
  env: NodeJS.ProcessEnv;
  emit(event: 'agent.delta', payload: AgentEvents['agent.delta']): void;
  /** The pane whose context goes with the request. */
  paneId(): number | undefined;
  /** An answer used these tokens (an auto run counts them). */
  used?(tokens: number): void;
  retryBaseMs?: number;
  /** Instructions queued because no backend answered (the app's panel; absent headless). */
  offline?: Pick<OfflineQueue, 'active' | 'checkFailed' | 'delivered'>;
  /** Where spans go: today's spend is read from its file. */
  tracer?: Pick<Tracer, 'enabled' | 'file'>;
  /** Each request to a backend is a `chat {model}` span. */
  tracing?: Pick<AgentTracing, 'chatStarted' | 'chatEnded'>;
}

/**
 * One request to the model at a time: the system prompt with the standing context, the
 * history that fits, the answer streamed into the conversation (its tool calls to the
 * dispatcher as they arrive), usage counted against the budget. What arrived of an answer
 * that was cancelled or broke off stays, marked, for the user and the model.
 */
export class ModelRequests {
  private turn: ModelTurn | undefined;
  /** Today's spend against `[ai] daily_budget_usd`: past it, no request goes out. */
  readonly daily: DailySpend;

  constructor(private readonly host: ModelRequestsHost) {
    this.daily = new DailySpend({
      limitUsd: () => host.settings().ai.daily_budget_usd,
      traceFile: () => (host.tracer?.enabled ? host.tracer.file : undefined),
    });
  }

  /** The request in flight, if one is. */
  get current(): ModelTurn | undefined {
    return this.turn;
  }

  cancel(): void {
    this.turn?.cancel();
    this.turn = undefined;
  }

  /** Tokens a model used for the window (an answer, a summary): the panel's figures at that model's price, the budgets. */
  countUsage(usage: { inputTokens: number; outputTokens: number }, model: string): void {
    const { conversation, budget } = this.host;
    conversation.countUsage(usage, model);
    this.daily.record(model, usage);
    this.host.used?.(usage.inputTokens + usage.outputTokens);
    const warning = budget.count(usage.inputTokens + usage.outputTokens);
    if (warning) conversation.addError(warning);
    conversation.changed();
  }

  /**
   * The model's answer, or undefined when there is none (no model, budget spent, failed,
   * cancelled). A backend that cannot be reached hands the request to the next
   * `[[ai.fallback]]` backend, with a card in the conversation saying so.
   */
  async send(): Promise<ModelResult | undefined> {
    const { conversation, models, budget, tools } = this.host;
    let connection = models.connection();
    if (!connection.backend) {
      // The panel's "Connect a model" card says how, once; each refused request only points there.
      conversation.addError(NO_MODEL);
      return undefined;
    }
    const spent = budget.exhausted();
    if (spent) {
      conversation.addError(spent);
      return undefined;
    }
    const refused = this.host.refusal?.();
    if (refused) {
      conversation.addError(refused);
      return undefined;
    }
    await this.daily.refresh();
    const overBudget = this.daily.refusal();
    if (overBudget) {
      conversation.addError(overBudget, { dailyBudget: true });
      return undefined;
    }
    const conversationId = conversation.id;
    const turn = new ModelTurn(
      {
        text: (delta) => this.host.emit('agent.delta', { conversationId: conversation.id, itemId: turn.item.id, text: delta }),
        sent: (body) => conversation.keepSent(turn.item, body),
        toolUse: (call) => tools.toolUse(call),
        changed: () => conversation.changed(),
        retryShown: (card) => conversation.add(card),
        retryDone: (card) => conversation.remove(card.id),
      },
      this.host.retryBaseMs,
    );
    this.turn = turn;
    conversation.settleRetries();
    conversation.add(turn.item);
    const settings = this.host.settings();
    const standing = await this.host.standing.build(this.host.paneId(), settings.ai.context_blocks, settings.context.include_env, this.host.env);
    const system = `${SYSTEM_PROMPT}\n\n${standing}`;
    let fellBackFrom: ModelConnection | undefined;
    const tried: string[] = [];
    try {
      for (;;) {
        const backend = connection.backend!;
        tried.push(describeConnection(connection));
        const messages = this.historyFor(connection.model, system);
        const offered = await tools.definitions({ backend: backend.kind, model: connection.model, computerUse: settings.ai.computer_use });
        const request = { model: connection.model, system, messages, ...offered, maxTokens: settings.ai.max_output_tokens };
        const span = this.host.tracing?.chatStarted(connection, fellBackFrom);
        if (span) turn.item.traceId = span.traceId;
        const end = await turn.run(backend, request, { fallbackReady: models.fallbacks.hasNext() });
        const replaced = conversation.id !== conversationId;
        const next = !replaced && end.kind === 'failed' && end.error.unreachable ? models.fallbacks.next() : undefined;
        this.host.tracing?.chatEnded(span, end, next?.connection);
        if (replaced) return undefined;
        if (next && end.kind === 'failed') {
          // The card goes before the answer it leads to.
          turn.resume();
          conversation.remove(turn.item.id);
          conversation.add(fallbackItem(connection, next, end.error.message, models.configured(), models.fallbacks.holdMinutes));
          conversation.add(turn.item);
          fellBackFrom = connection;
          connection = next.connection;
          continue;
        }
        return this.settle(turn, end, connection.model, tried);
      }
    } finally {
      this.turn = undefined;
      if (!turn.item.text) conversation.remove(turn.item.id);
      conversation.changed();
    }
  }

  /** The history that fits `model`'s window (a fallback's may be smaller), its size shown in the panel. */
  private historyFor(model: string, system: string): AgentMessage[] {
    const { conversation } = this.host;
    const ai = this.host.settings().ai;
    const { contextWindow } = modelFacts(model);
    const compactAt = Math.floor((contextWindow * ai.compact_at_percent) / 100);
    const messages = conversation.historyWithin(Math.min(ai.history_token_budget, Math.floor(contextWindow * 0.6)), compactAt);
    conversation.contextTokens = estimateTokens(system) + estimateMessagesTokens(messages);
    conversation.changed();
    return messages;
  }

  private settle(turn: ModelTurn, end: TurnEnd, model: string, tried: string[]): ModelResult | undefined {
    const { conversation, tools, offline } = this.host;
    if (end.kind === 'answered') {
      const { usage, content } = end.result;
      offline?.delivered();
      this.countUsage(usage, model);
      conversation.appendToHistory('assistant', content);
      tools.responseComplete();
      return end.result;
    }
    // What arrived stays in the conversation, for the user and the model.
    const cut = end.kind === 'cancelled' ? CANCELLED_MARK : BROKE_OFF_MARK;
    if (turn.item.text) conversation.appendToHistory('assistant', [{ type: 'text', text: `${turn.item.text}\n${cut}` }]);
    tools.responseDropped();
    if (end.kind !== 'failed') return undefined;
    if (!end.error.unreachable) {
      conversation.addError(end.error.message, { request: { attempts: end.attempts, sentId: turn.item.id } });
      return undefined;
    }
    // §14.8: nothing answered. While instructions are queued, this was one more check (the panel's banner says so).
    if (offline?.active) {
      offline.checkFailed();
      return undefined;
    }
    const text = tried.length > 1 ? `No backend answered: ${tried.join(', then ')}. The last one: ${end.error.message}` : end.error.message;
    conversation.addError(text, { request: { attempts: end.attempts, sentId: turn.item.id }, offerQueue: offline !== undefined });
    return undefined;
  }
}

function fallbackItem(from: ModelConnection, next: FallbackStep, reason: string, configured: ModelConnection, holdMinutes: number): FallbackItem {
  return {
    id: randomUUID(),
    role: 'fallback',
    from: backendView(from),
    to: backendView(next.connection),
    reason,
    skipped: next.skipped,
    configured: backendView(configured),
    holdMinutes,
    at: Date.now(),
  };
}

function backendView(connection: ModelConnection): BackendView {
  return { backend: connection.backendKind, model: connection.model, ...(connection.endpoint ? { endpoint: connection.endpoint } : {}) };
}
