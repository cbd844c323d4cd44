import type { AutoSummary, AutoView } from './companion';
import type { PlanView } from './planViews';

/**
 * The AI panel's view of the agent, owned by the engine and sent to the renderer whole
 * (`agent.conversation`) whenever its structure changes; streaming text arrives in between
 * as `agent.delta` events. The renderer only displays this and sends requests back.
 *
 * Ordering: a view holds all the text of every delta sent before it, and an assistant item
 * is in a view before its first delta. A delta for an item the renderer does not know (or
 * for another conversation) can be dropped.
 */

export type AgentStatus =
  /** Nothing in flight. */
  | 'idle'
  /** A request was sent; no token has arrived yet. */
  | 'thinking'
  | 'streaming'
  /** A plan step waits for the user. */
  | 'awaiting-approval'
  | 'running-step'
  /** Waiting before retrying a failed request (statusDetail has the countdown). */
  | 'retrying';

export interface AttachmentView {
  blockId: string;
  command: string;
  exitCode?: number;
  cwd: string;
  /** A few lines of the output, for the chip's tooltip. */
  excerpt: string;
}

export type ConversationItem =
  | {
      id: string;
      role: 'user';
      text: string;
      /** Where it was typed: the panel, a `# ` line at the prompt, a note between plan steps, an `!auto` task. */
      source: 'panel' | 'prompt' | 'note' | 'command' | 'auto';
      attachments: AttachmentView[];
      /** Secrets taken out of the text before it went to the model: "1 secret redacted (aws-access-key)". */
      redacted?: string;
      at: number;
    }
  | {
      id: string;
      role: 'assistant';
      text: string;
      streaming: boolean;
      /** Set when the answer stopped early (cancelled, stream broke); the text received stays. */
      interrupted?: string;
      /** The request behind this answer is kept: `agent.sent` returns exactly what went to the model. */
      sent?: boolean;
      /** The trace of the run this answer is part of (docs/telemetry.md); absent when telemetry is off. */
      traceId?: string;
      at: number;
    }
  | {
      id: string;
      role: 'tool';
      tool: string;
      /** One line for the UI: "ran `ls` → exit 0, 12 lines", "read package.json (2.1 KB)". */
      summary: string;
      ok: boolean;
      /** The block a command produced (`! cmd` from the panel). */
      blockId?: string;
      /** Secrets taken out of the output before the model saw it: "2 secrets redacted from this output (…)". */
      redacted?: string;
      at: number;
    }
  | {
      id: string;
      role: 'error';
      text: string;
      /** The request failed: Retry sends it again (cleared once another request went out). */
      retryable?: boolean;
      /** How many times it was sent before giving up (more than 1: it was retried). */
      attempts?: number;
      /** "What was sent" for the failed request (`agent.sent` takes this id). */
      sentId?: string;
      /** The request was refused before it was sent: today's spend reached `[ai] daily_budget_usd`. */
      dailyBudget?: boolean;
      /** No backend answered (§14.8): the card offers to queue the instruction until one does. */
      offerQueue?: boolean;
      at: number;
    }
  | {
      id: string;
      role: 'retry';
      /** Why the request failed: "Rate limited by http://… (429)." */
      reason: string;
      /** waiting: the countdown runs; cancelled: the user stopped it and the request was not sent again. */
      state: 'waiting' | 'cancelled';
      /** Whole seconds until it is sent again (while waiting). */
      secondsLeft: number;
      /** The attempt the countdown leads to, of `attempts` in all. */
      attempt: number;
      attempts: number;
      at: number;
    }
  | FallbackItem
  | { id: string; role: 'plan'; plan: PlanView; at: number }
  /** The end of an `!auto` run, written by Tandem from what happened. */
  | { id: string; role: 'summary'; summary: AutoSummary; at: number }
  | BlockSummaryItem;

/** A backend and model as the panel names it. */
export interface BackendView {
  backend: 'anthropic' | 'openai-compatible';
  model: string;
  endpoint?: string;
}

/** The request went to the next `[[ai.fallback]]` backend because this one could not be reached. */
export interface FallbackItem {
  id: string;
  role: 'fallback';
  from: BackendView;
  to: BackendView;
  /** Why `from` failed: "Cannot reach http://… (ECONNREFUSED …)". */
  reason: string;
  /** Fallbacks passed over on the way, with why ("… (OLLAMA_KEY is not set)"). */
  skipped: string[];
  /** The configured backend: the conversation goes back to it after `holdMinutes` or in a new conversation. */
  configured: BackendView;
  holdMinutes: number;
  at: number;
}

/** Who wrote a summary: the small model; local filtering, and why; or nobody — the output as it is, and why. */
export type SummarySource = { kind: 'model'; model: string } | { kind: 'local'; reason: string } | { kind: 'as-is'; reason: string };

/** "Summarize output" from a block's menu: the summary, shown in the panel (the model gets it with the next message). */
export interface BlockSummaryItem {
  id: string;
  role: 'block-summary';
  blockId: string;
  paneId: number;
  /** The block's command line, scrubbed. */
  command: string;
  exitCode?: number;
  /** working: the small model is being asked. */
  state: 'working' | 'done';
  /** The summary (or the output, or local filtering of it), scrubbed. */
  text: string;
  source?: SummarySource;
  /** "test results", "build output", "git", "package install", "logs", "generic". */
  outputType?: string;
  lineCount?: number;
  at: number;
}

export interface ConversationUsage {
  inputTokens: number;
  outputTokens: number;
  /**
   * Each request at the list price of the model that answered it, summed (switching model
   * does not reprice past requests); absent when no request had a known price (local models).
   */
  costUsd?: number;
  /** Some request was to a model without a price: its cost is not in `costUsd` ("cost unknown"). */
  costUnknown?: boolean;
  /** Estimated tokens of the last request (standing context + kept history). */
  contextTokens: number;
  contextWindow: number;
}

export interface ConversationView {
  id: string;
  items: ConversationItem[];
  status: AgentStatus;
  /** "Rate limited; retrying in 4 s", "waiting for pane 2's prompt" ... */
  statusDetail?: string;
  backend: 'anthropic' | 'openai-compatible';
  model: string;
  usage: ConversationUsage;
  /** Absent when a model can be reached; otherwise how to connect one. */
  setupHint?: string;
  /** Messages typed while the agent was busy; they go out with the next request. */
  queued: number;
  /**
   * The first item the model still sees: the history before it was dropped from the last
   * request to fit the context budget. Absent while nothing was dropped.
   */
  contextStartsAt?: string;
  /**
   * The last request sent older turns as Tandem's summary instead of whole (`[ai]
   * compact_at_percent`): how many, their estimated tokens before and after. `startsAt` is the
   * first item sent whole (the panel's marker goes before it). Absent while nothing was compacted.
   */
  compaction?: { startsAt?: string; turns: number; fromTokens: number; toTokens: number };
  /** Tokens used since the window opened against `[ai] session_token_budget` (limit 0: none). */
  budget: { used: number; limit: number };
  /** Command shapes allowed for this session ("Allow for this session"). */
  grants: { shape: string; example: string }[];
  /** policy.toml files that could not be used (everything asks until they are fixed). */
  policyProblems: string[];
  /** The `!auto` run working now, if one is. */
  auto?: AutoView;
  /** Instructions queued because no backend answered (§14.8), sent when one does. */
  offline?: OfflineView;
  dailyBudget?: DailyBudgetView;
}

/** `[ai] daily_budget_usd` while one is set. */
export interface DailyBudgetView {
  /** Today's spend as last read (every process), in USD. */
  spentUsd: number;
  limitUsd: number;
  /** Models asked here that have no price: their requests are not counted. */
  unpriced: string[];
}

export interface OfflineView {
  instructions: { text: string; at: number }[];
  /** Checks that found no backend since they were queued. */
  checks: number;
  /** When the next check goes out (absent while one runs). */
  nextCheckAt?: number;
}

/** The models the picker offers for a backend. */
export interface ModelList {
  backend: 'anthropic' | 'openai-compatible';
  models: string[];
  /** endpoint: its own list (`GET /v1/models`); catalog: Tandem's suggestions, because it did not answer. */
  source: 'endpoint' | 'catalog';
  /** Why the catalog is shown. */
  note?: string;
}
