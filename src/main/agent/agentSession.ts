import { randomUUID } from 'node:crypto';
import type { AgentEvents, AgentResults, AgentStatus, ConversationView, ModelList, PlanAction, StepAction } from '../../shared/agent';
import type { Settings } from '../../shared/settings';
import { failuresForModel, recentFailures } from '../companion/whatJustHappened';
import { estimateTokens } from '../context/tokenEstimate';
import type { EngineLog } from '../log/engineLog';
import type { PromptRequest } from '../prompt/promptInterceptor';
import type { ApprovalGate } from '../safety/approval/approvalGate';
import type { AuditLog } from '../safety/audit/auditLog';
import { describeRedactions, scrubEnvironment, scrubSecrets } from '../safety/secretScrubber';
import type { AgentPane } from './agentPane';
import type { AgentContent, ModelResult } from './backends/modelBackend';
import { attachBlocks } from './conversation/attachments';
import { Conversation, type ConversationSurroundings } from './conversation/conversation';
import { BROKE_OFF_MARK, estimateMessagesTokens } from './conversation/conversationHistory';
import { modelFacts } from './modelCatalog';
import { ModelChoice, type ApiKeyStore, type BackendKind } from './modelConnection';
import { ModelLists } from './modelList';
import { ModelTurn } from './modelTurn';
import type { PlanRunner } from './plan/planRunner';
import { NO_PAGER_ENV } from './plan/stepEnvironment';
import { StandingContextCache } from './standingContextCache';
import { summarizeBlockIntoPanel } from './summarizer/blockSummaryItem';
import { smallModelFor } from './summarizer/smallModel';
import { Summarizer } from './summarizer/summarizer';
import { SYSTEM_PROMPT } from './systemPrompt';
import { TokenBudget } from './tokenBudget';
import { ToolDispatcher } from './tools/toolDispatcher';
import { AGENT_TOOLS } from './tools/toolRegistry';
import { UserCommand } from './userCommand';

/** Two cancels within this window stop everything the agent is doing. */
const DOUBLE_CANCEL_MS = 1_000;

/** How a cancelled partial answer ends in the history the model is sent. */
const CANCELLED_MARK = '[The user cancelled this answer here.]';

/** What the agent needs from the engine. */
export interface AgentHost {
  settings(): Settings;
  env: NodeJS.ProcessEnv;
  keys: ApiKeyStore;
  pane(paneId: number): AgentPane | undefined;
  /** The pane the user worked in last, when a request names none. */
  defaultPaneId(): number | undefined;
  emit<E extends keyof AgentEvents>(event: E, payload: AgentEvents[E]): void;
  /** First retry delay when the server names none (doubling each time); tests shorten it. */
  retryBaseMs?: number;
  /** The approval gate every command of the agent passes: risk, policy, hooks, session grants. */
  gate: ApprovalGate;
  /** The audit trail of every proposed, decided and executed action. */
  audit: Pick<AuditLog, 'append'>;
  /** Where model errors and hook failures are recorded. */
  log?: Pick<EngineLog, 'error' | 'warning'>;
}

/**
 * The agent of one window: takes the panel's requests and runs the loop — a model turn, then
 * its tool calls (plans included), then the next turn with their results — over the
 * conversation's state. The loop never blocks the engine; the user can type in any pane,
 * cancel, or send more while a response streams (it is queued for the next request).
 */
export class AgentSession {
  private readonly conversation: Conversation;
  private readonly models: ModelChoice;
  private readonly modelLists = new ModelLists();
  private readonly budget: TokenBudget;
  private readonly tools: ToolDispatcher;
  private readonly userCommand = new UserCommand();
  private readonly standing: StandingContextCache;
  private readonly summarizer: Summarizer;
  private turn: ModelTurn | undefined;
  private looping = false;
  private lastCancelAt = 0;
  private activePaneId: number | undefined;

  constructor(private readonly host: AgentHost) {
    this.conversation = new Conversation({ surroundings: () => this.surroundings(), emit: (view) => host.emit('agent.conversation', view), log: host.log });
    this.models = new ModelChoice(() => host.settings().ai, host.env, host.keys);
    this.budget = new TokenBudget(() => this.settings().sessionTokenBudget);
    this.standing = new StandingContextCache((paneId) => host.pane(paneId));
    this.summarizer = new Summarizer({
      smallModel: () => {
        const spent = this.budget.exhausted();
        return spent ? { ok: false, reason: 'the session token budget is used up' } : smallModelFor(this.models.connection(), this.settings().small_model);
      },
      countUsage: (usage, model) => this.countSummaryUsage(usage, model),
    });
    this.tools = new ToolDispatcher(AGENT_TOOLS, {
      pane: (paneId) => host.pane(paneId),
      paneId: () => this.paneId(),
      cwd: () => this.cwd(),
      homeDir: host.env.HOME,
      conversation: this.conversation,
      gate: host.gate,
      audit: host.audit,
      log: host.log,
      stepTimeoutMs: () => this.settings().stepTimeoutSeconds * 1000,
      stepEnv: () => (this.settings().stepsUsePager ? undefined : NO_PAGER_ENV),
      summarizer: this.summarizer,
    });
  }

  view(): ConversationView {
    return this.conversation.view();
  }

  /** Exactly what went to the model for an answer (pretty-printed JSON), while it is kept. */
  sentPayload(itemId: string): AgentResults['agent.sent'] {
    return { payload: this.conversation.sentPayload(itemId) };
  }

  /**
   * An error card's Retry: the request that failed goes out again. An answer that broke off
   * mid-stream is in the history as it arrived; the model is asked for it again.
   */
  retry(): void {
    if (this.looping || this.turn) throw new Error('The agent is still working; wait for it or cancel it (Esc) first.');
    if (!this.conversation.unanswered) {
      if (!this.conversation.lastAnswerBroke) throw new Error('There is no failed request to send again.');
      this.conversation.appendToHistory('user', [{ type: 'text', text: '[Your answer above broke off. Answer again.]' }]);
    }
    void this.runLoop(true);
  }

  /** The model picker's list for a backend: the endpoint's own, or the catalog. */
  listModels(backend?: BackendKind): Promise<ModelList> {
    return this.modelLists.list(backend ? this.models.connectionFor(backend) : this.models.connection());
  }

  /** The window closed (or another took its place): its session grants end. */
  revokeAllGrants(): void {
    for (const grant of this.host.gate.grants.list()) this.host.gate.grants.revoke(grant.shape);
  }

  revokeGrant(shape: string): ConversationView {
    this.host.gate.grants.revoke(shape);
    this.conversation.changed();
    return this.view();
  }

  // ── Requests from the panel ──────────────────────────────────────────────────────────

  /** `modelHint` goes to the model with the message but is not shown in the panel. */
  async send(
    request: { text: string; attachments: string[]; paneId?: number },
    source: 'panel' | 'prompt' = 'panel',
    modelHint?: string,
  ): Promise<void> {
    if (request.paneId !== undefined) this.activePaneId = request.paneId;
    const attachments = await attachBlocks(request.attachments, (paneId) => this.host.pane(paneId));
    const text = request.text.trim();
    if (!text && attachments.length === 0) return;
    // While a plan waits for the user, a message steers it: the rest of the plan is revised.
    if (this.tools.plan?.steerable) {
      this.addNote(text, attachments.map((attachment) => attachment.content));
      return;
    }
    const scrubbed = scrubSecrets(text);
    this.conversation.add({
      id: randomUUID(),
      role: 'user',
      text,
      source,
      attachments: attachments.map((attachment) => attachment.view),
      redacted: describeRedactions(scrubbed.redactions) || undefined,
      at: Date.now(),
    });
    const content: AgentContent[] = attachments.map((attachment) => ({ type: 'text', text: attachment.content }));
    if (text) content.push({ type: 'text', text: modelHint ? `${scrubbed.text}\n${modelHint}` : scrubbed.text });
    this.conversation.queue(content, true);
    void this.runLoop();
  }

  /** A `# ` or `?? ` line taken from a pane's prompt. */
  promptRequest(paneId: number, request: PromptRequest): void {
    this.host.emit('agent.prompt-instruction', { paneId, text: request.text });
    if (request.kind === 'instruction') {
      void this.send({ text: request.text, attachments: [], paneId }, 'prompt');
      return;
    }
    const quick = '(A quick question typed at the prompt: answer briefly.)';
    const pane = this.host.pane(paneId);
    const blocks = pane?.blocks() ?? [];
    const failed = request.text ? [] : recentFailures(blocks);
    if (pane && failed.length > 0) {
      // A bare `??` after failures: "help with what just happened", their errors already fetched.
      const text = failed.length === 1 ? 'What happened with this command? Say how to fix it.' : 'What happened with these commands? Say how to fix it.';
      void failuresForModel(pane, failed).then((errors) => this.send({ text, attachments: [], paneId }, 'prompt', `${quick}\n\n${errors}`));
      return;
    }
    const last = blocks.filter((block) => block.endedAt !== undefined).at(-1);
    const text = request.text || 'What happened with this command? Explain briefly, and say how to fix it if it failed.';
    void this.send({ text, attachments: last ? [last.id] : [], paneId }, 'prompt', quick);
  }

  note(text: string): void {
    if (!this.tools.plan) {
      void this.send({ text, attachments: [] });
      return;
    }
    this.addNote(text, []);
  }

  planAction(planId: string, action: PlanAction): void {
    this.planFor(planId).planAction(action);
  }

  stepAction(planId: string, stepId: string, action: StepAction, command?: string, reason?: string): void {
    if (action === 'undo') {
      // The plan may be long finished; the card shows how it went, an error card what stopped it.
      this.tools.undoEdit(planId, stepId).catch((error: unknown) => this.reportError(error));
      return;
    }
    this.planFor(planId).stepAction(stepId, action, command, reason);
  }

  cancel(everything: boolean): AgentResults['agent.cancel'] {
    const now = Date.now();
    const double = now - this.lastCancelAt < DOUBLE_CANCEL_MS;
    this.lastCancelAt = now;
    const plan = this.tools.plan;
    let cancelled: AgentResults['agent.cancel']['cancelled'] = 'nothing';
    if (everything || double) {
      this.cancelTurn();
      plan?.cancel(true);
      this.userCommand.interrupt();
      this.conversation.takeQueued();
      cancelled = 'everything';
    } else if (this.turn) {
      this.cancelTurn();
      cancelled = 'stream';
    } else if (this.userCommand.running || plan?.runningStep) {
      this.userCommand.interrupt();
      plan?.interruptRunningStep();
      cancelled = 'step';
    } else if (plan) {
      plan.cancel(false);
      cancelled = 'plan';
    }
    this.conversation.changed();
    return { cancelled };
  }

  /** `! cmd` typed in the panel: the user's own command, run in the pane; its block joins the conversation. */
  async runUserCommand(paneId: number, command: string): Promise<void> {
    this.activePaneId = paneId;
    const pane = this.host.pane(paneId);
    if (!pane) throw new Error(`There is no pane ${paneId}.`);
    if (this.userCommand.running || this.tools.plan?.runningStep) throw new Error('A command from the AI panel is still running; wait for it or cancel it.');
    await this.userCommand.run(pane, command, this.settings().stepTimeoutSeconds * 1000, this.conversation);
  }

  /** The block menu's "Summarize output": the summary goes to the panel. */
  async summarizeBlock(paneId: number, blockId: string): Promise<void> {
    const pane = this.host.pane(paneId);
    if (!pane) throw new Error(`There is no pane ${paneId}.`);
    await summarizeBlockIntoPanel(pane, blockId, this.summarizer, this.conversation);
  }

  newConversation(): ConversationView {
    this.cancel(true);
    this.tools.reset();
    this.conversation.reset();
    return this.view();
  }

  setModel(change: { backend?: BackendKind; model?: string }): ConversationView {
    this.models.choose(change);
    this.conversation.changed();
    return this.view();
  }

  async setKey(backend: BackendKind, key: string): Promise<AgentResults['agent.key']> {
    const stored = await this.host.keys.set(backend, key.trim());
    this.conversation.changed();
    return { stored };
  }

  /** A failure outside a request (a `! cmd` in a pane that closed) shown in the conversation. */
  reportError(error: unknown): void {
    this.host.log?.error('engine', 'the agent failed', error);
    this.conversation.addError(error instanceof Error ? error.message : String(error), { logged: true });
  }

  /** Settings changed (model, backend, endpoint): the panel's header and hint follow. */
  settingsChanged(): void {
    this.conversation.changed();
  }

  dispose(): void {
    this.cancel(true);
    this.conversation.dispose();
  }

  // ── The loop ─────────────────────────────────────────────────────────────────────────

  /** `resend`: the history already ends with the request to send (Retry). */
  private async runLoop(resend = false): Promise<void> {
    if (this.looping) return;
    this.looping = true;
    try {
      while (resend || (this.conversation.hasQueued && !this.tools.plan?.waitingForUser)) {
        // "New conversation" replaces the history; a loop of the old one must not write into it.
        const conversation = this.conversation.id;
        this.conversation.appendToHistory('user', this.conversation.takeQueued());
        resend = false;
        for (;;) {
          const result = await this.requestModel();
          if (!result || this.conversation.id !== conversation) break;
          const toolUses = result.content.filter((part) => part.type === 'tool_use');
          if (toolUses.length === 0) break;
          const { results, stop, note } = await this.tools.execute(toolUses);
          if (note) this.conversation.queue([{ type: 'text', text: note }]);
          if (this.conversation.id !== conversation) break;
          this.conversation.appendToHistory('user', results);
          if (stop) break;
          // Messages typed meanwhile go out with the tool results.
          if (this.conversation.hasQueued) this.conversation.appendToHistory('user', this.conversation.takeQueued());
        }
      }
    } finally {
      this.looping = false;
      this.conversation.changed();
    }
  }

  private async requestModel(): Promise<ModelResult | undefined> {
    const connection = this.models.connection();
    if (!connection.backend) {
      this.conversation.addError(connection.setupHint ?? 'No model is connected.');
      return undefined;
    }
    const spent = this.budget.exhausted();
    if (spent) {
      this.conversation.addError(spent);
      return undefined;
    }
    const conversation = this.conversation.id;
    const turn = new ModelTurn(
      {
        text: (delta) => this.host.emit('agent.delta', { conversationId: this.conversation.id, itemId: turn.item.id, text: delta }),
        sent: (body) => this.conversation.keepSent(turn.item, body),
        toolUse: (call) => this.tools.toolUse(call),
        changed: () => this.conversation.changed(),
        retryShown: (card) => this.conversation.add(card),
        retryDone: (card) => this.conversation.remove(card.id),
      },
      this.host.retryBaseMs,
    );
    this.turn = turn;
    this.conversation.settleRetries();
    this.conversation.add(turn.item);
    const settings = this.settings();
    const environment = scrubEnvironment(this.host.env, this.host.settings().context.include_env);
    const system = `${SYSTEM_PROMPT}\n\n${await this.standing.build(this.paneId(), settings.contextBlocks, environment)}`;
    const messages = this.conversation.historyWithin(Math.min(settings.historyTokenBudget, Math.floor(modelFacts(connection.model).contextWindow * 0.6)));
    this.conversation.contextTokens = estimateTokens(system) + estimateMessagesTokens(messages);
    this.conversation.changed();
    try {
      const end = await turn.run(connection.backend, {
        model: connection.model,
        system,
        messages,
        tools: this.tools.definitions(),
        maxTokens: settings.maxOutputTokens,
      });
      if (this.conversation.id !== conversation) return undefined;
      if (end.kind === 'answered') {
        const { usage, content } = end.result;
        this.conversation.countUsage(usage, connection.model);
        const warning = this.budget.count(usage.inputTokens + usage.outputTokens);
        if (warning) this.conversation.addError(warning);
        this.conversation.appendToHistory('assistant', content);
        this.tools.responseComplete();
        return end.result;
      }
      // What arrived stays in the conversation, for the user and the model.
      const cut = end.kind === 'cancelled' ? CANCELLED_MARK : BROKE_OFF_MARK;
      if (turn.item.text) this.conversation.appendToHistory('assistant', [{ type: 'text', text: `${turn.item.text}\n${cut}` }]);
      this.tools.responseDropped();
      if (end.kind === 'failed') this.conversation.addError(end.error.message, { request: { attempts: end.attempts, sentId: turn.item.id } });
      return undefined;
    } finally {
      this.turn = undefined;
      if (!turn.item.text) this.conversation.remove(turn.item.id);
      this.conversation.changed();
    }
  }

  /** A summary's tokens in the panel's figures (priced at the small model) and against the session budget. */
  private countSummaryUsage(usage: { inputTokens: number; outputTokens: number }, model: string): void {
    this.conversation.countUsage(usage, model);
    const warning = this.budget.count(usage.inputTokens + usage.outputTokens);
    if (warning) this.conversation.addError(warning);
    this.conversation.changed();
  }

  private cancelTurn(): void {
    this.turn?.cancel();
    this.turn = undefined;
  }

  private addNote(text: string, attachmentContent: string[]): void {
    this.conversation.add({ id: randomUUID(), role: 'user', text, source: 'note', attachments: [], at: Date.now() });
    const note = [
      ...attachmentContent,
      `Note from the user before the remaining steps: ${scrubSecrets(text).text}\nRevise the remaining steps accordingly.`,
    ].join('\n\n');
    this.tools.plan?.addNote(note);
    this.conversation.changed();
  }

  private planFor(planId: string): PlanRunner {
    const runner = this.tools.plan;
    if (!runner || runner.plan.id !== planId) throw new Error('That plan is no longer waiting for a decision.');
    return runner;
  }

  // ── State ────────────────────────────────────────────────────────────────────────────

  private surroundings(): ConversationSurroundings {
    const connection = this.models.connection();
    return {
      status: this.status(),
      statusDetail: this.turn?.phase === 'retrying' ? this.turn.detail : this.tools.plan?.detail,
      backend: connection.backendKind,
      model: connection.model,
      setupHint: connection.setupHint,
      budget: { used: this.budget.used, limit: this.settings().sessionTokenBudget },
      grants: this.host.gate.grants.list().map(({ shape, example }) => ({ shape, example })),
      policyProblems: this.host.gate.policyProblems(),
    };
  }

  private status(): AgentStatus {
    if (this.turn) return this.turn.phase;
    const plan = this.tools.plan;
    if (this.userCommand.running || plan?.runningStep) return 'running-step';
    if (plan?.waitingForUser) return 'awaiting-approval';
    if (this.looping) return 'thinking';
    return 'idle';
  }

  private settings(): Settings['ai'] {
    return this.host.settings().ai;
  }

  private paneId(): number | undefined {
    if (this.activePaneId !== undefined && this.host.pane(this.activePaneId)) return this.activePaneId;
    return this.host.defaultPaneId();
  }

  private cwd(): string {
    const paneId = this.paneId();
    return (paneId !== undefined ? this.host.pane(paneId)?.cwd : undefined) ?? this.host.env.HOME ?? '/';
  }
}
