import { randomUUID } from 'node:crypto';
import type { PlanAction, StepAction } from '../../../shared/agent';
import { scrubSecrets } from '../../safety/secretScrubber';
import type { Conversation } from '../conversation/conversation';
import type { ToolDispatcher } from '../tools/toolDispatcher';
import type { PlanRunner } from './planRunner';

interface PlanControlsHost {
  tools: ToolDispatcher;
  conversation: Conversation;
  /** A message to the model when no plan waits. */
  send(text: string): void;
  reportError(error: unknown): void;
}

/**
 * The user's hand on the plan that waits or runs: Allow all / Stop, a step's decision, a
 * child agent's step (nested under its spawn step), and notes that steer the rest of the plan.
 */
export class PlanControls {
  constructor(private readonly host: PlanControlsHost) {}

  note(text: string): void {
    if (!this.host.tools.plan) {
      this.host.send(text);
      return;
    }
    this.addNote(text, []);
  }

  /** A message while the plan waits: shown as the user's note, and the model revises the remaining steps. */
  addNote(text: string, attachmentContent: string[]): void {
    const { conversation, tools } = this.host;
    conversation.add({ id: randomUUID(), role: 'user', text, source: 'note', attachments: [], at: Date.now() });
    const note = [...attachmentContent, `Note from the user before the remaining steps: ${scrubSecrets(text).text}\nRevise the remaining steps accordingly.`].join('\n\n');
    tools.plan?.addNote(note);
    conversation.changed();
  }

  /**
   * Throws at once (with a message for the user) when the plan cannot take the decision;
   * else resolves once the panel shows it: after the echo of a step it typed (PlanRunner).
   */
  planAction(planId: string, action: PlanAction): Promise<void> {
    return this.planFor(planId).planAction(action).then(() => this.host.conversation.shown());
  }

  /** As `planAction`; an undo resolves once it was started. */
  stepAction(planId: string, stepId: string, action: StepAction, command?: string, reason?: string): Promise<void> {
    if (action === 'undo') {
      // The plan may be long finished; the card shows how it went, an error card what stopped it.
      this.host.tools.undoEdit(planId, stepId).catch((error: unknown) => this.host.reportError(error));
      return Promise.resolve();
    }
    return this.planFor(planId).stepAction(stepId, action, command, reason).then(() => this.host.conversation.shown());
  }

  /** A decision on a child agent's step that asks, from the nested card under its spawn step. */
  childApproval(planId: string, stepId: string, requestId: string, decision: 'allow' | 'deny', note?: string): void {
    const step = this.planFor(planId).plan.step(stepId);
    if (!step) throw new Error('That step is no longer in this conversation.');
    this.host.tools.childAgents.answer(step.toolUseId, requestId, { decision, ...(note ? { note } : {}) });
  }

  private planFor(planId: string): PlanRunner {
    const runner = this.host.tools.plan;
    if (!runner || runner.plan.id !== planId) throw new Error('That plan is no longer waiting for a decision.');
    return runner;
  }
}
