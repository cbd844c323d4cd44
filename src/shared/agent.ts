import { z } from 'zod';
import type { ConversationView, ModelList } from './conversationView';
import { PlanActionSchema, StepActionSchema } from './planViews';

/**
 * The agent's API between the panel and the engine: its requests, their results and its
 * events. The views it sends are declared by topic (conversationView.ts, planViews.ts) and
 * named here too, so the panel imports the whole contract from one place.
 */

export type { AgentStatus, AttachmentView, ConversationItem, SummarySource, BlockSummaryItem, ConversationUsage, ConversationView, ModelList } from './conversationView';
export type { StepRisk, StepApproval, StepDecider, StepStatus, ChildAgentView, ChildStepView, ChildApprovalView, DiffLine, DiffHunk, DiffView, EditStepView, PlanStepView, PlanState, PlanView, PlanAction, StepAction } from './planViews';
export { PlanActionSchema, StepActionSchema } from './planViews';

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
  /** A decision on a child agent's step that asks (shown nested under its spawn_agent step). */
  'agent.child-approval': z
    .object({
      planId: id,
      stepId: id,
      requestId: z.string().min(1).max(200),
      decision: z.enum(['allow', 'deny']),
      /** Why, for the child's model (deny). */
      note: z.string().max(2_000).optional(),
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
  /** §14.8 when no backend answers: queue the instruction, check for a backend now, or discard the queue. */
  'agent.offline': z.object({ action: z.enum(['queue', 'retry', 'discard']) }).strict(),
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
  'agent.child-approval': Record<string, never>;
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
  'agent.offline': Record<string, never>;
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
