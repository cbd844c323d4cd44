import { z } from 'zod';
import type { AutoSummary, AutoView } from './companion';
import type { ScreenshotView, UiStepView } from './screenSteps';

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

/** How risky a command is, from a real shell parse (worst part wins). */
export interface StepRisk {
  level: 'green' | 'yellow' | 'red';
  /** Short sentences: "rm -r -f on / deletes everything". */
  reasons: string[];
}

/** What the approval gate decided for a step's current command, and who decided. */
export interface StepApproval {
  /** allow: runs without asking; ask: the user decides; deny: it will not run. */
  decision: 'allow' | 'ask' | 'deny';
  /** RED and not named by a policy allow pattern: only Edit, Deny or Skip. */
  blocked: boolean;
  /** The rule, hook, grant or person that decided: "policy ~/.config/tandem/policy.toml: …". */
  rule: string;
  decidedBy: 'builtin' | 'policy' | 'hook' | 'grant' | 'default' | 'person';
  /** "Allow for this session" is offered (never for RED). */
  grantable: boolean;
  /** What that grant covers: the command's shape. */
  shape: string;
  /** Only a decision on this very step lets it run: not Allow all, not a grant (an edit outside the pane's cwd). */
  personal?: boolean;
}

/** Who let a step run, or kept it from running: the card says it ("allowed by Allow all"). */
export interface StepDecider {
  verdict: 'allowed' | 'denied' | 'skipped';
  /** you: a button or key on this step; allow-all: the plan's Allow all; auto: an `!auto` run (GREEN steps); the rest: the approval gate. */
  by: 'you' | 'allow-all' | 'auto' | 'grant' | 'policy' | 'hook' | 'builtin';
  /** The action or rule: "Allow once", "Deny", "policy ~/.config/tandem/policy.toml: allow git status". */
  rule: string;
}

export type StepStatus = 'proposed' | 'approved' | 'running' | 'done' | 'failed' | 'denied' | 'skipped';

/** One line of a unified diff, with its number in the old file, the new one, or both. */
export interface DiffLine {
  kind: 'same' | 'add' | 'remove';
  text: string;
  oldLine?: number;
  newLine?: number;
}

export interface DiffHunk {
  oldStart: number;
  newStart: number;
  lines: DiffLine[];
}

/** What an edit changes, as a unified diff (3 lines of context). */
export interface DiffView {
  added: number;
  removed: number;
  hunks: DiffHunk[];
  /** Diff lines left out of a very large diff (counted, not shown). */
  hiddenLines?: number;
  /** The line break at the very end was added or removed (no line shows it). */
  finalNewline?: 'added' | 'removed';
}

/** The file change an edit step proposes (edit_file, write_file). */
export interface EditStepView {
  tool: 'edit_file' | 'write_file';
  /** The file that changes, absolute (a symlink's target). */
  path: string;
  /** The file does not exist yet: the step creates it. */
  creates: boolean;
  diff: DiffView;
  /** After Undo was asked for: whether the previous content is back, or why not. */
  undo?: { restored: boolean; message: string };
}

export interface PlanStepView {
  id: string;
  /**
   * A shell command typed into the pane (absent: a command too), a file edit, a look at the
   * screen (a screenshot, its text by OCR, the window list), or a UI action (a click, typing …).
   */
  kind?: 'command' | 'edit' | 'screenshot' | 'screen-text' | 'windows' | 'ui';
  /** A UI action step: the action in words and where on the last screenshot it lands. */
  ui?: UiStepView;
  /** A screenshot step's image, exactly as the model was sent it. */
  screenshot?: ScreenshotView;
  /** The file change of an edit step; `command` is then a one-line description of it. */
  edit?: EditStepView;
  /** 1-based position in the plan. */
  index: number;
  command: string;
  /** The model's command when the user (or a pre-exec hook) changed it before it ran. */
  originalCommand?: string;
  /** The pre-exec hook that changed the command, when one did. */
  changedByHook?: string;
  purpose: string;
  status: StepStatus;
  /** Why the step is in its state: denial reason, "waiting for the prompt", timed out ... (never just its duration). */
  detail?: string;
  paneId?: number;
  blockId?: string;
  exitCode?: number;
  durationMs?: number;
  /**
   * Absent until classified. A RED step is blocked: neither Approve nor Allow all runs it;
   * the user can edit it into something less dangerous, deny it or skip it.
   */
  risk?: StepRisk;
  /** Absent while the gate (policy, hooks, grants) is deciding. */
  approval?: StepApproval;
  /** Set once the step was allowed, denied or skipped: by whom. */
  decider?: StepDecider;
  /** Where the step runs (its pane's cwd when it was proposed or last judged). */
  cwd?: string;
  /** Secrets taken out of its output before the model saw it: "1 secret redacted from this output (…)". */
  redacted?: string;
  /** Proposed after its auto run's step limit was reached: refused, and not counted against the limit. */
  beyondLimit?: boolean;
}

export type PlanState =
  /** Steps wait for decisions or run. */
  | 'active'
  /** A step failed; the plan waits for the user to continue or stop. */
  | 'halted'
  | 'finished'
  | 'cancelled';

export interface PlanView {
  id: string;
  /** `ask` until the user picks Allow all or Step through. */
  mode: 'ask' | 'allow-all' | 'step-through';
  state: PlanState;
  haltReason?: string;
  steps: PlanStepView[];
  /** The one step that takes decisions now (its buttons and the one-letter keys); absent while none does. */
  decisionStepId?: string;
  /** A plan of an `!auto` run: GREEN steps run without asking, RED ones are refused. */
  auto?: boolean;
}

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
  | { id: string; role: 'plan'; plan: PlanView; at: number }
  /** The end of an `!auto` run, written by Tandem from what happened. */
  | { id: string; role: 'summary'; summary: AutoSummary; at: number }
  | BlockSummaryItem;

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
  /** Tokens used since the window opened against `[ai] sessionTokenBudget` (limit 0: none). */
  budget: { used: number; limit: number };
  /** Command shapes allowed for this session ("Allow for this session"). */
  grants: { shape: string; example: string }[];
  /** policy.toml files that could not be used (everything asks until they are fixed). */
  policyProblems: string[];
  /** The `!auto` run working now, if one is. */
  auto?: AutoView;
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

export const PlanActionSchema = z.enum(['allow-all', 'step-through', 'deny-plan', 'continue', 'stop']);
export type PlanAction = z.infer<typeof PlanActionSchema>;
/**
 * approve = Allow once; allow-session also grants the command's shape until the window closes;
 * undo restores the file a finished edit step changed (when it has not changed since).
 */
export const StepActionSchema = z.enum(['approve', 'allow-session', 'deny', 'skip', 'edit', 'undo']);
export type StepAction = z.infer<typeof StepActionSchema>;

const text = z.string().max(100_000);
const id = z.string().max(100);
const paneId = z.number().int().nonnegative();

export const AgentRequestSchemas = {
  'agent.state': z.object({}).strict(),
  /** A message from the panel input (or `??` / `# ` typed at a prompt, routed by the engine). */
  'agent.send': z
    .object({
      text,
      attachments: z.array(z.string().max(64)).max(20).default([]),
      /** The pane commands run in and whose context is sent; the active pane. */
      paneId: paneId.optional(),
    })
    .strict(),
  /**
   * Esc / Ctrl+C in the panel. The engine decides by state: cancel the stream, the waiting
   * plan or SIGINT the running step; a second cancel within a second stops everything.
   */
  'agent.cancel': z.object({ everything: z.boolean().default(false) }).strict(),
  'agent.plan': z.object({ planId: id, action: PlanActionSchema }).strict(),
  'agent.step': z
    .object({
      planId: id,
      stepId: id,
      action: StepActionSchema,
      /** The edited command (edit), or the reason the model is told (deny). */
      command: z.string().max(20_000).optional(),
      reason: z.string().max(2_000).optional(),
    })
    .strict(),
  /** A note between steps: sent to the model, which revises the remaining steps. */
  'agent.note': z.object({ text }).strict(),
  /** `!auto <task>` (the prompt, the panel or the palette): the agent works on the task in the pane until it is done. */
  'agent.auto': z.object({ paneId, task: z.string().trim().min(1).max(20_000) }).strict(),
  /** The auto banner's Stop: the running step is interrupted and the run ends. */
  'agent.auto-stop': z.object({}).strict(),
  /** `! cmd` in the panel: the user's own command, run in the pane; its block joins the conversation. */
  'agent.run': z.object({ paneId, command: z.string().min(1).max(20_000) }).strict(),
  'agent.new': z.object({}).strict(),
  /** Model and backend for this conversation (settings hold the default). */
  'agent.model': z
    .object({ backend: z.enum(['anthropic', 'openai-compatible']).optional(), model: z.string().min(1).max(200).optional() })
    .strict(),
  /** The models a backend's endpoint offers (the conversation's backend when none is named). */
  'agent.models': z.object({ backend: z.enum(['anthropic', 'openai-compatible']).optional() }).strict(),
  /** "What was sent": the exact request body behind an assistant answer. */
  'agent.sent': z.object({ itemId: id }).strict(),
  /** A screenshot step's image as a data: URL (ScreenshotView.id). */
  'agent.image': z.object({ id }).strict(),
  /** Send the last request again after it failed (an error card's Retry). */
  'agent.retry': z.object({}).strict(),
  /** Withdraw an "Allow for this session" grant. */
  'agent.revoke': z.object({ shape: z.string().max(20_000) }).strict(),
  /** "Summarize output" on a block: its summary (small model or local filtering) is added to the panel. */
  'agent.summarize': z.object({ paneId, blockId: z.string().max(64) }).strict(),
  /** Store an API key in the OS keychain (Electron) or for this run (browser mode). Never sent back. */
  'agent.key': z.object({ backend: z.enum(['anthropic', 'openai-compatible']), key: z.string().max(500) }).strict(),
} as const;

export interface AgentResults {
  'agent.state': ConversationView;
  'agent.send': Record<string, never>;
  'agent.cancel': { cancelled: 'stream' | 'plan' | 'step' | 'everything' | 'nothing' };
  'agent.plan': Record<string, never>;
  'agent.step': Record<string, never>;
  'agent.note': Record<string, never>;
  'agent.run': Record<string, never>;
  'agent.auto': Record<string, never>;
  'agent.auto-stop': Record<string, never>;
  'agent.new': ConversationView;
  'agent.model': ConversationView;
  'agent.key': { stored: 'keychain' | 'memory' };
  'agent.sent': { payload: string };
  'agent.image': { src: string };
  'agent.retry': Record<string, never>;
  'agent.models': ModelList;
  'agent.revoke': ConversationView;
  'agent.summarize': Record<string, never>;
}

export interface AgentEvents {
  'agent.conversation': ConversationView;
  /** Streaming text appended to an assistant item. */
  'agent.delta': { conversationId: string; itemId: string; text: string };
  /** A `# ` / `??` line was taken from a prompt: the panel should open and show it. */
  'agent.prompt-instruction': { paneId: number; text: string };
}
