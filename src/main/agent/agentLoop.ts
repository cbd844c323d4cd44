import type { AutoEnd } from '../../shared/companion';
import type { AutoMode } from './auto/autoMode';
import type { Conversation } from './conversation/conversation';
import type { ModelRequests } from './modelRequests';
import type { AgentTracing } from '../telemetry/agentTracing';
import type { DailySpend } from './dailySpend';
import type { TokenBudget } from './tokenBudget';
import type { ToolDispatcher } from './tools/toolDispatcher';

export interface AgentLoopParts {
  conversation: Conversation;
  requests: Pick<ModelRequests, 'send'>;
  tools: Pick<ToolDispatcher, 'plan' | 'execute'>;
  auto: Pick<AutoMode, 'running' | 'stopping' | 'planStop' | 'stepsRan' | 'loopEnded'>;
  budget: Pick<TokenBudget, 'exhausted'>;
  /** Today's spend against `[ai] daily_budget_usd`. */
  daily?: Pick<DailySpend, 'refusal'>;
  /** Each run of the loop is an `invoke_agent` span. */
  tracing?: Pick<AgentTracing, 'loopStarted' | 'loopEnded'>;
}

/**
 * The agent's loop: a model turn, then its tool calls (plans included), then the next turn
 * with their results, while there is something to send and no plan waits for the user. One
 * loop at a time; an auto run ends with it.
 */
export class AgentLoop {
  private looping = false;

  constructor(private readonly parts: AgentLoopParts) {}

  get running(): boolean {
    return this.looping;
  }

  /** `resend`: the history already ends with the request to send (Retry). */
  async run(resend = false): Promise<void> {
    if (this.looping) return;
    this.looping = true;
    this.parts.tracing?.loopStarted();
    const { conversation, requests, tools, auto } = this.parts;
    // An answer without tool calls ends the loop with the model's say-so (an auto run is done).
    let answered = false;
    try {
      while (resend || (conversation.hasQueued && !tools.plan?.waitingForUser)) {
        // "New conversation" replaces the history; a loop of the old one must not write into it.
        const conversationId = conversation.id;
        conversation.appendToHistory('user', conversation.takeQueued());
        resend = false;
        for (;;) {
          const result = await requests.send();
          if (!result || conversation.id !== conversationId) break;
          const toolUses = result.content.filter((part) => part.type === 'tool_use');
          answered = toolUses.length === 0;
          if (answered) break;
          // An auto run told to stop (its token budget) runs none of them; every call still gets its result.
          if (auto.stopping) tools.plan?.cancel(false, auto.planStop);
          const { results, stop, note } = await tools.execute(toolUses);
          auto.stepsRan();
          if (note) conversation.queue([{ type: 'text', text: note }]);
          if (conversation.id !== conversationId) break;
          conversation.appendToHistory('user', results);
          if (stop || auto.stopping) break;
          // Messages typed meanwhile go out with the tool results.
          if (conversation.hasQueued) conversation.appendToHistory('user', conversation.takeQueued());
        }
      }
    } finally {
      this.looping = false;
      this.parts.tracing?.loopEnded(answered ? 'success' : 'failed');
      if (auto.running) auto.loopEnded(answered ? { kind: 'done' } : this.unansweredEnd());
      conversation.changed();
    }
  }

  /** Why the loop ended without an answer: the session budget, or a request that failed (its error card says how). */
  private unansweredEnd(): AutoEnd {
    if (this.parts.budget.exhausted()) return { kind: 'limit', limit: 'session-budget', detail: 'the session token budget was used up' };
    if (this.parts.daily?.refusal()) return { kind: 'limit', limit: 'daily-budget', detail: "today's spend reached the daily budget ([ai] daily_budget_usd)" };
    return { kind: 'failed', detail: 'the model request failed (the error is shown above)' };
  }
}
