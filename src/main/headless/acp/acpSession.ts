import { RequestError, type AgentContext, type ContentBlock, type PromptResponse, type SessionUpdate } from '@agentclientprotocol/sdk';
import type { ConversationView, PlanStepView } from '../../../shared/agent';
import type { EngineOptions } from '../../engine/engine';
import type { AgentOptions } from '../agentOptions';
import { AGENT_EXIT } from '../agentStream';
import type { PendingApproval } from '../conversationEvents';
import { HeadlessSession } from '../headlessSession';
import { runOutcome } from '../runOutcome';
import { promptContent } from './promptContent';
import { SessionUpdates } from './sessionUpdates';
import { permissionOptions, stepDecision } from './stepPermission';

/** The pane an editor's session runs its steps in: nobody sees it, but commands see its size. */
const PANE_COLS = 120;
const PANE_ROWS = 40;

/**
 * One ACP session: a HeadlessSession (the engine, its gate, audit and scrubbing, the agent's
 * own shell in its own pty, in the editor's cwd) whose events go to the editor as
 * `session/update`s and whose steps that wait for a decision become
 * `session/request_permission` requests.
 */
export class AcpSession {
  private readonly session: HeadlessSession;
  private readonly updates: SessionUpdates;
  private prompting = false;
  private cancelled = false;

  constructor(
    private readonly client: AgentContext,
    engineFor: (view: () => ConversationView) => EngineOptions,
    private readonly options: AgentOptions,
    cwd: string,
  ) {
    this.updates = new SessionUpdates(
      (update) => this.send(update),
      (stepId) => stepIn(this.session.view.items, stepId),
    );
    this.session = new HeadlessSession({
      engine: engineFor(() => this.session.view),
      cwd,
      shell: options.shell,
      cols: PANE_COLS,
      rows: PANE_ROWS,
      model: options.model,
      backend: options.backend,
      emit: (event) => this.updates.event(event),
      askFor: (pending) => void this.askFor(pending),
    });
  }

  get id(): string {
    return this.session.sessionId;
  }

  /** Starts the session's shell; fails when it cannot start. */
  async start(): Promise<void> {
    await this.session.start();
    const exit = this.session.shellExit;
    if (exit) throw RequestError.internalError(undefined, `The agent's shell could not start: ${exit.message}`);
  }

  /** A prompt turn: resolves once the agent is done with it (or was cancelled). */
  async prompt(blocks: readonly ContentBlock[]): Promise<PromptResponse> {
    if (this.prompting) throw RequestError.invalidRequest(undefined, 'This session is still working on a prompt; cancel it first.');
    const exit = this.session.shellExit;
    if (exit) throw RequestError.internalError(undefined, `The agent's shell has ended (${exit.message}); start a new session.`);
    const { text, data } = promptContent(blocks);
    if (!text) throw RequestError.invalidParams(undefined, 'The prompt has no text: say what the agent should do.');
    this.prompting = true;
    this.cancelled = false;
    this.updates.startTurn();
    const itemsBefore = this.session.view.items.length;
    try {
      if (this.options.auto) await this.session.auto(text, data);
      else await this.session.instruct(text, data);
    } finally {
      this.prompting = false;
    }
    if (this.cancelled) return { stopReason: 'cancelled' };
    const view = this.session.view;
    const outcome = runOutcome(view, view.items[itemsBefore]?.id, undefined);
    if (outcome.exitCode === AGENT_EXIT.model) throw RequestError.internalError(undefined, `The model could not be reached: ${outcome.reason}`);
    const steps = view.items.slice(itemsBefore).flatMap((item) => (item.role === 'plan' ? item.plan.steps : []));
    return { stopReason: steps.at(-1)?.beyondLimit ? 'max_turn_requests' : 'end_turn' };
  }

  /**
   * `session/cancel`: the turn stops — the model's answer, the steps still waiting, and the
   * running step, whose process group is killed. Its prompt then ends `cancelled`.
   */
  cancel(): void {
    if (!this.prompting) return;
    this.cancelled = true;
    this.session.stopEverything();
  }

  async close(): Promise<void> {
    this.session.stopEverything();
    await this.session.close();
  }

  private async askFor(pending: PendingApproval): Promise<void> {
    const options = permissionOptions(pending.step);
    let decision;
    try {
      const answer = await this.client.request('session/request_permission', { sessionId: this.id, toolCall: this.updates.toolCall(pending.step), options });
      decision = stepDecision(answer.outcome, options);
    } catch (error) {
      decision = { action: 'deny' as const, reason: `the permission request failed: ${(error as Error).message}` };
    }
    // The turn may have moved on meanwhile (cancelled, the plan ended): the engine refuses a decision on a step no longer waiting.
    const step = stepIn(this.session.view.items, pending.step.id);
    if (step?.status !== 'proposed' || step.command !== pending.step.command) return;
    try {
      this.session.decide(pending, decision.action, { reason: decision.reason });
    } catch {
      // The plan stopped waiting between the check and the decision.
    }
  }

  private send(update: SessionUpdate): void {
    this.client.notify('session/update', { sessionId: this.id, update }).catch(() => undefined);
  }
}

function stepIn(items: ConversationView['items'], stepId: string): PlanStepView | undefined {
  for (const item of items) {
    if (item.role !== 'plan') continue;
    const step = item.plan.steps.find((candidate) => candidate.id === stepId);
    if (step) return step;
  }
  return undefined;
}
