import { randomUUID } from 'node:crypto';
import type { AgentResults, ConversationView, ModelList, PlanAction, StepAction } from '../../shared/agent';
import type { AutoStopper } from '../../shared/companion';
import type { Settings } from '../../shared/settings';
import { quickQuestion } from '../companion/quickQuestion';
import type { PromptRequest } from '../prompt/promptInterceptor';
import type { AgentHost } from './agentHost';
import { AgentTracing } from '../telemetry/agentTracing';
import { AgentLoop } from './agentLoop';
import { sessionSurroundings } from './agentSurroundings';
import { AutoMode } from './auto/autoMode';
import { attachBlocks } from './conversation/attachments';
import { Conversation, type ConversationSurroundings } from './conversation/conversation';
import { userMessage } from './conversation/userMessage';
import { OfflineQueue } from './offline/offlineQueue';
import { ModelChoice, type BackendKind } from './modelConnection';
import { ModelLists } from './modelList';
import { ModelRequests } from './modelRequests';
import type { PlanRules } from './plan/plan';
import type { PlanStop } from './plan/planEvents';
import { PlanControls } from './plan/planControls';
import { StandingContextCache } from './standingContextCache';
import { summarizeBlockIntoPanel } from './summarizer/blockSummaryItem';
import { Summarizer } from './summarizer/summarizer';
import { TokenBudget } from './tokenBudget';
import type { ToolDispatcher } from './tools/toolDispatcher';
import { agentTools } from './agentTools';
import { UserCommand } from './userCommand';

/** Two cancels within this window stop everything the agent is doing. */
const DOUBLE_CANCEL_MS = 1_000;

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
  /** §14.8: instructions no backend answered, queued at the user's word (the app only). */
  private readonly offline: OfflineQueue | undefined;
  private readonly tools: ToolDispatcher;
  private readonly controls: PlanControls;
  private readonly userCommand = new UserCommand();
  private readonly standing: StandingContextCache;
  private readonly requests: ModelRequests;
  private readonly summarizer: Summarizer;
  private readonly loop: AgentLoop;
  private lastCancelAt = 0;
  private activePaneId: number | undefined;
  private readonly auto: AutoMode;
  private readonly tracing: AgentTracing | undefined;

  constructor(private readonly host: AgentHost) {
    this.conversation = new Conversation({ surroundings: () => this.surroundings(), emit: (view) => host.emit('agent.conversation', view), log: host.log });
    this.tracing = host.tracer && new AgentTracing(host.tracer, () => this.conversation.id, host.headless);
    this.models = new ModelChoice(() => host.settings().ai, host.env, host.keys);
    this.budget = new TokenBudget(() => this.settings().session_token_budget);
    this.offline = host.headless
      ? undefined
      : new OfflineQueue({
          file: host.queueFile,
          conversation: this.conversation,
          busy: () => this.loop.running || this.requests.current !== undefined,
          run: (resend) => void this.loop.run(resend),
          firstCheckMs: host.retryBaseMs && host.retryBaseMs * 15,
          onError: (error) => host.log?.warning('session', error.message),
        });
    this.standing = new StandingContextCache((paneId) => host.pane(paneId));
    this.auto = new AutoMode({
      settings: () => host.settings().companion,
      items: () => this.conversation.items,
      busy: () => this.loop.running || this.requests.current !== undefined || this.userCommand.running,
      hasPane: (paneId) => host.pane(paneId) !== undefined,
      sendTask: (paneId, task, instructions, itemId, data) => this.send({ text: task, attachments: [], paneId, data }, 'auto', instructions, itemId),
      stopEverything: (stop) => this.stopEverything(stop),
      addSummary: (summary) => this.conversation.add({ id: randomUUID(), role: 'summary', summary, at: Date.now() }),
      changed: () => this.conversation.changed(),
      runChanged: (paneId) => host.autoChanged?.(paneId),
    });
    this.summarizer = new Summarizer({
      smallModel: () => {
        if (this.budget.exhausted()) return { ok: false, reason: 'the session token budget is used up' };
        if (this.requests.daily.refusal()) return { ok: false, reason: "today's spend reached [ai] daily_budget_usd" };
        return this.models.smallModel(this.settings().small_model);
      },
      countUsage: (usage, model) => this.requests.countUsage(usage, model),
      tracing: this.tracing,
    });
    const tools = agentTools(host, {
      conversation: this.conversation,
      models: this.models,
      summarizer: this.summarizer,
      tracing: this.tracing,
      paneId: () => this.paneId(),
      cwd: () => this.cwd(),
      stepTimeoutMs: () => this.auto.stepTimeoutMs() ?? this.settings().step_timeout_seconds * 1000,
      planRules: () => this.planRules(),
    });
    this.tools = tools;
    this.controls = new PlanControls({ tools, conversation: this.conversation, send: (text) => void this.send({ text, attachments: [] }), reportError: (error) => this.reportError(error) });
    this.requests = new ModelRequests({
      conversation: this.conversation,
      models: this.models,
      budget: this.budget,
      refusal: host.requestRefusal,
      offline: this.offline,
      tools,
      standing: this.standing,
      settings: () => host.settings(),
      env: host.env,
      emit: (event, payload) => host.emit(event, payload),
      paneId: () => this.paneId(),
      used: (tokens) => this.auto.countTokens(tokens),
      retryBaseMs: host.retryBaseMs,
      tracer: host.tracer,
      tracing: this.tracing,
    });
    this.loop = new AgentLoop({ conversation: this.conversation, requests: this.requests, tools, auto: this.auto, budget: this.budget, daily: this.requests.daily, tracing: this.tracing });
    this.offline?.restore();
  }

  view(): ConversationView {
    return this.conversation.view();
  }

  /** Exactly what went to the model for an answer (pretty-printed JSON), while it is kept. */
  sentPayload(itemId: string): AgentResults['agent.sent'] {
    return { payload: this.conversation.sentPayload(itemId) };
  }

  /** A screenshot step's image, exactly as the model got it. */
  image(id: string): AgentResults['agent.image'] {
    return { src: this.tools.image(id) };
  }

  /**
   * An error card's Retry: the request that failed goes out again. An answer that broke off
   * mid-stream is in the history as it arrived; the model is asked for it again.
   */
  retry(): void {
    if (this.loop.running || this.requests.current) throw new Error('The agent is still working; wait for it or cancel it (Esc) first.');
    if (!this.conversation.unanswered) {
      if (!this.conversation.lastAnswerBroke) throw new Error('There is no failed request to send again.');
      this.conversation.appendToHistory('user', [{ type: 'text', text: '[Your answer above broke off. Answer again.]' }]);
    }
    void this.loop.run(true);
  }

  /** The model picker's list for a backend: the endpoint's own, or the catalog. */
  listModels(backend?: BackendKind): Promise<ModelList> {
    return this.modelLists.list(backend ? this.models.connectionFor(backend) : this.models.connection());
  }

  /** The no-backend card's "Queue it", the queue banner's "Retry now" and "Discard". */
  offlineAction(action: 'queue' | 'retry' | 'discard'): void {
    if (!this.offline) throw new Error('Instructions are queued only in the app.');
    this.offline.act(action);
  }

  /** A child agent starts with the grants its parent passed on (`[ai] pass_grants_to_children`). */
  inheritGrants(grants: readonly { shape: string; example: string }[]): void {
    for (const { shape, example } of grants) this.host.gate.grants.grant(shape, example);
  }

  /** The window closed (GrantLifetime): its session grants end. */
  revokeAllGrants(): void {
    for (const grant of this.host.gate.grants.list()) this.host.gate.grants.revoke(grant.shape);
  }

  revokeGrant(shape: string): ConversationView {
    this.host.gate.grants.revoke(shape);
    this.conversation.changed();
    return this.view();
  }

  // ── Requests from the panel ──────────────────────────────────────────────────────────

  /** The loop, a request, a `! cmd` or an auto run is in progress (a plan waiting for a decision counts). */
  get working(): boolean {
    return this.loop.running || this.requests.current !== undefined || this.userCommand.running || this.auto.running || this.tools.plan?.waitingForUser === true;
  }

  /**
   * `modelHint` goes to the model with the message but is not shown in the panel; `data` goes
   * before it (text piped into `tandem agent`, already marked as data and scrubbed).
   */
  async send(
    request: { text: string; attachments: string[]; paneId?: number; data?: string },
    source: 'panel' | 'prompt' | 'auto' = 'panel',
    modelHint?: string,
    itemId: string = randomUUID(),
  ): Promise<string | undefined> {
    if (request.paneId !== undefined) this.activePaneId = request.paneId;
    const attachments = await attachBlocks(request.attachments, (paneId) => this.host.pane(paneId));
    const text = request.text.trim();
    if (!text && attachments.length === 0) return undefined;
    // While a plan waits for the user, a message steers it: the rest of the plan is revised.
    if (this.tools.plan?.steerable) {
      this.controls.addNote(text, attachments.map((attachment) => attachment.content));
      return undefined;
    }
    this.tracing?.instruction(text, source === 'auto' ? 'auto' : 'panel');
    const message = userMessage({ id: itemId, text, source, attachments, data: request.data, autoEnd: this.auto.takeEndNote(), modelHint });
    this.conversation.add(message.item);
    const content = message.content;
    this.conversation.queue(content, true);
    if (this.offline?.active) this.offline.add(text);
    void this.loop.run();
    return itemId;
  }

  /**
   * `!auto <task>`: the agent works on the task in the pane until it says it is done, with
   * the same plan cards; GREEN steps run without asking, RED ones are refused. Ctrl+C in the
   * pane, Esc or Stop in the panel, or a limit ends the run; Tandem then writes its summary.
   */
  startAuto(paneId: number, task: string, data?: string): Promise<void> {
    return this.auto.start(paneId, task, data);
  }

  /** The auto banner's Stop, Esc in the panel, or Ctrl+C in the run's pane. */
  stopAuto(by: AutoStopper): void {
    this.auto.stop(by);
  }

  /** A pane closed: an auto run working in it ends. */
  paneClosed(paneId: number): void {
    this.auto.paneClosed(paneId);
  }

  /** The pane the auto run works in, if one runs. */
  get autoPaneId(): number | undefined {
    return this.auto.paneId;
  }

  /** A `# ` or `?? ` line taken from a pane's prompt. */
  promptRequest(paneId: number, request: PromptRequest): void {
    this.host.emit('agent.prompt-instruction', { paneId, text: request.text });
    if (request.kind === 'instruction') {
      void this.send({ text: request.text, attachments: [], paneId }, 'prompt');
      return;
    }
    void quickQuestion(this.host.pane(paneId), request.text).then(({ text, attachments, hint }) => this.send({ text, attachments, paneId }, 'prompt', hint));
  }

  note(text: string): void {
    this.controls.note(text);
  }

  planAction(planId: string, action: PlanAction): Promise<void> {
    return this.controls.planAction(planId, action);
  }

  stepAction(planId: string, stepId: string, action: StepAction, command?: string, reason?: string): Promise<void> {
    return this.controls.stepAction(planId, stepId, action, command, reason);
  }

  childApproval(planId: string, stepId: string, requestId: string, decision: 'allow' | 'deny', note?: string): void {
    this.controls.childApproval(planId, stepId, requestId, decision, note);
  }

  cancel(everything: boolean): AgentResults['agent.cancel'] {
    const now = Date.now();
    const double = now - this.lastCancelAt < DOUBLE_CANCEL_MS;
    this.lastCancelAt = now;
    const plan = this.tools.plan;
    let cancelled: AgentResults['agent.cancel']['cancelled'] = 'nothing';
    if (this.auto.running) {
      // In an auto run, Esc is the banner's Stop: the running step is interrupted and the run ends.
      this.stopAuto('panel');
      cancelled = 'everything';
    } else if (everything || double) {
      this.stopEverything();
      cancelled = 'everything';
    } else if (this.requests.current) {
      this.requests.cancel();
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
    await this.userCommand.run(pane, command, this.settings().step_timeout_seconds * 1000, this.conversation);
  }

  /** The block menu's "Summarize output": the summary goes to the panel. */
  async summarizeBlock(paneId: number, blockId: string): Promise<void> {
    const pane = this.host.pane(paneId);
    if (!pane) throw new Error(`There is no pane ${paneId}.`);
    await summarizeBlockIntoPanel(pane, blockId, this.summarizer, this.conversation);
  }

  /** The conversation's id and model history, for `tandem agent --session` to go on with later. */
  savedHistory(): ReturnType<Conversation['savedHistory']> {
    return this.conversation.savedHistory();
  }

  /** Goes on with a saved conversation (nothing may be running). */
  resume(saved: Parameters<Conversation['resume']>[0]): void {
    if (this.working) throw new Error('The agent is working; a saved conversation can only be resumed before it starts.');
    this.conversation.resume(saved);
  }

  newConversation(): ConversationView {
    this.auto.abandon();
    this.cancel(true);
    this.auto.takeEndNote();
    this.tools.reset();
    this.offline?.discard();
    this.conversation.reset();
    this.models.fallbacks.reset();
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
    this.offline?.dispose();
    this.conversation.dispose();
  }

  /** Everything stops: the stream, the plan with its running step, a `! cmd`, queued messages; `stop` says why (a plain cancel when absent). */
  private stopEverything(stop?: PlanStop): void {
    this.requests.cancel();
    this.tools.plan?.cancel(true, stop);
    this.userCommand.interrupt();
    this.conversation.takeQueued();
    this.conversation.changed();
  }

  // ── State ────────────────────────────────────────────────────────────────────────────

  private surroundings(): ConversationSurroundings {
    const { models, requests, tools, budget, auto, userCommand, loop, offline } = this;
    return sessionSurroundings({ models, requests, tools, budget, auto, userCommand, loop, offline, gate: this.host.gate, ai: this.settings() });
  }

  /** A headless run's rules (who refuses, the step limit) under an auto run's, when one runs. */
  private planRules(): PlanRules | undefined {
    const auto = this.auto.planRules();
    const headless = this.host.planRules?.();
    if (!headless) return auto;
    return { ...headless, ...auto, stepLimit: auto?.stepLimit ?? headless.stepLimit };
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
