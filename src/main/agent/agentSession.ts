import { randomUUID } from 'node:crypto';
import type {
  AgentEvents,
  AgentResults,
  AgentStatus,
  AttachmentView,
  ConversationItem,
  ConversationView,
} from '../../shared/agent';
import type { Block } from '../../shared/blocks';
import type { Settings } from '../../shared/settings';
import type { AgentPane } from './agentPane';
import type { PromptRequest } from '../prompt/promptInterceptor';
import type { AgentContent, AgentMessage, ModelResult } from './backends/modelBackend';
import { ModelError } from './backends/modelError';
import { blockForModel } from './blockForModel';
import { appendMessage, estimateMessagesTokens, fitHistory } from './conversationHistory';
import { estimateCostUsd, modelFacts } from './modelCatalog';
import { connectModel, type ApiKeyStore, type BackendKind, type ModelConnection } from './modelConnection';
import type { ApprovalGate } from '../safety/approval/approvalGate';
import type { EngineLog } from '../log/engineLog';
import type { AuditLog } from '../safety/audit/auditLog';
import { Plan, assessStepRisk, type PlanStep, type RiskClassifier } from './plan';
import { PlanRunner } from './planRunner';
import { StandingContextCache } from './standingContextCache';
import { SYSTEM_PROMPT } from './systemPrompt';
import { RUN_COMMAND_TOOL, RunCommandInputSchema } from './tools/runCommandTool';
import { READ_ONLY_TOOLS, runReadOnlyTool } from './tools/readOnlyTools';
import { StepRunner } from './stepRunner';
import { estimateTokens } from '../context/tokenEstimate';
import { describeRedactions, scrubEnvironment, scrubSecrets } from '../safety/secretScrubber';

/** Automatic retries of a request that failed before anything streamed. */
const MAX_RETRIES = 4;
/** "What was sent" keeps the request bodies of the conversation up to this many characters in all (oldest dropped first). */
const MAX_KEPT_REQUEST_CHARS = 16 * 1024 * 1024;
/** The session token budget warns at this share of it. */
const BUDGET_WARNING_SHARE = 0.8;
/** Two cancels within this window stop everything the agent is doing. */
const DOUBLE_CANCEL_MS = 1_000;

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

interface Turn {
  abort: AbortController;
  phase: 'thinking' | 'streaming' | 'retrying';
  item: Extract<ConversationItem, { role: 'assistant' }>;
}

/**
 * One conversation with the model (one per window): the agent loop, plans and the view the
 * panel shows. The loop never blocks the engine; the user can type in any pane, cancel, or
 * send more while a response streams (it is queued for the next request).
 */
export class AgentSession {
  private id = randomUUID();
  private items: ConversationItem[] = [];
  private history: AgentMessage[] = [];
  private usage = { inputTokens: 0, outputTokens: 0, contextTokens: 0 };
  private override: { backend?: BackendKind; model?: string } = {};
  private turn: Turn | undefined;
  private planRunner: PlanRunner | undefined;
  private userStep: StepRunner | undefined;
  /** User content waiting for the next request: queued messages, `! cmd` results. */
  private pending: AgentContent[] = [];
  private pendingMessages = 0;
  private looping = false;
  private viewTimer: NodeJS.Timeout | undefined;
  private lastCancelAt = 0;
  private retryDetail: string | undefined;
  private activePaneId: number | undefined;
  private readonly standing: StandingContextCache;

  private readonly classify: RiskClassifier;
  /** Tokens sent and received since the window opened (not reset by a new conversation). */
  private sessionTokens = 0;
  /** The budget the 80% warning was given for (a raised budget warns again). */
  private budgetWarnedAt: number | undefined;
  /** Request bodies by assistant item of this conversation, newest last, for "what was sent". */
  private readonly sent = new Map<string, string>();
  private sentChars = 0;

  constructor(private readonly host: AgentHost) {
    this.standing = new StandingContextCache((paneId) => host.pane(paneId));
    this.classify = async (command, cwd) => {
      const { level, reasons } = await host.gate.classify(command, cwd);
      return { level, reasons };
    };
  }

  view(): ConversationView {
    const connection = this.connection();
    return {
      id: this.id,
      items: this.items.map((item) => (item.role === 'plan' ? { ...item, plan: item.plan } : { ...item })),
      status: this.status(),
      statusDetail: this.statusDetail(),
      backend: connection.backendKind,
      model: connection.model,
      usage: {
        inputTokens: this.usage.inputTokens,
        outputTokens: this.usage.outputTokens,
        costUsd: estimateCostUsd(connection.model, this.usage.inputTokens, this.usage.outputTokens),
        contextTokens: this.usage.contextTokens,
        contextWindow: modelFacts(connection.model).contextWindow,
      },
      setupHint: connection.setupHint,
      queued: this.pendingMessages,
      budget: { used: this.sessionTokens, limit: this.settings().sessionTokenBudget },
      grants: this.host.gate.grants.list().map(({ shape, example }) => ({ shape, example })),
      policyProblems: this.host.gate.policyProblems(),
    };
  }

  /** Exactly what went to the model for an answer (pretty-printed JSON), while it is kept. */
  sentPayload(itemId: string): AgentResults['agent.sent'] {
    const payload = this.sent.get(itemId);
    if (payload === undefined) throw new Error('The request behind that answer is no longer kept (the oldest go once the kept requests pass 16 MB).');
    return { payload };
  }

  /** The window closed (or another took its place): its session grants end. */
  revokeAllGrants(): void {
    for (const grant of this.host.gate.grants.list()) this.host.gate.grants.revoke(grant.shape);
  }

  revokeGrant(shape: string): ConversationView {
    this.host.gate.grants.revoke(shape);
    this.changed();
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
    const attachments = await this.attachmentsFor(request.attachments);
    const text = request.text.trim();
    if (!text && attachments.length === 0) return;
    // While a plan waits for the user, a message steers it: the rest of the plan is revised.
    if (this.planRunner?.steerable) {
      this.addNote(text, attachments.map((attachment) => attachment.content));
      return;
    }
    const scrubbed = scrubSecrets(text);
    this.items.push({
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
    this.pending.push(...content);
    this.pendingMessages++;
    this.changed();
    void this.runLoop();
  }

  /** A `# ` or `?? ` line taken from a pane's prompt. */
  promptRequest(paneId: number, request: PromptRequest): void {
    this.host.emit('agent.prompt-instruction', { paneId, text: request.text });
    if (request.kind === 'instruction') {
      void this.send({ text: request.text, attachments: [], paneId }, 'prompt');
      return;
    }
    const last = this.host
      .pane(paneId)
      ?.blocks()
      .filter((block) => block.endedAt !== undefined)
      .at(-1);
    const text = request.text || 'What happened with this command? Explain briefly, and say how to fix it if it failed.';
    void this.send({ text, attachments: last ? [last.id] : [], paneId }, 'prompt', '(A quick question typed at the prompt: answer briefly.)');
  }

  note(text: string): void {
    if (!this.planRunner) {
      void this.send({ text, attachments: [] });
      return;
    }
    this.addNote(text, []);
  }

  planAction(planId: string, action: Parameters<PlanRunner['planAction']>[0]): void {
    this.runnerFor(planId).planAction(action);
  }

  stepAction(planId: string, stepId: string, action: Parameters<PlanRunner['stepAction']>[1], command?: string, reason?: string): void {
    this.runnerFor(planId).stepAction(stepId, action, command, reason);
  }

  cancel(everything: boolean): AgentResults['agent.cancel'] {
    const now = Date.now();
    const double = now - this.lastCancelAt < DOUBLE_CANCEL_MS;
    this.lastCancelAt = now;
    let cancelled: AgentResults['agent.cancel']['cancelled'] = 'nothing';
    if (everything || double) {
      this.abortTurn();
      this.planRunner?.cancel(true);
      this.userStep?.interrupt();
      this.pending = [];
      this.pendingMessages = 0;
      cancelled = 'everything';
    } else if (this.turn) {
      this.abortTurn();
      cancelled = 'stream';
    } else if (this.userStep || this.planRunner?.runningStep) {
      this.userStep?.interrupt();
      this.planRunner?.interruptRunningStep();
      cancelled = 'step';
    } else if (this.planRunner) {
      this.planRunner.cancel(false);
      cancelled = 'plan';
    }
    this.changed();
    return { cancelled };
  }

  /** `! cmd` typed in the panel: the user's own command, run in the pane; its block joins the conversation. */
  async runUserCommand(paneId: number, command: string): Promise<void> {
    this.activePaneId = paneId;
    const pane = this.host.pane(paneId);
    if (!pane) throw new Error(`There is no pane ${paneId}.`);
    if (this.userStep || this.planRunner?.runningStep) throw new Error('A command from the AI panel is still running; wait for it or cancel it.');
    this.items.push({ id: randomUUID(), role: 'user', text: `! ${command}`, source: 'command', attachments: [], at: Date.now() });
    this.changed();
    const runner = new StepRunner(pane, command, { timeoutMs: this.settings().stepTimeoutSeconds * 1000 });
    this.userStep = runner;
    try {
      const outcome = await runner.run();
      if (outcome.kind === 'finished') {
        const exit = outcome.block.exitCode;
        this.items.push({
          id: randomUUID(),
          role: 'tool',
          tool: 'shell',
          summary: `ran \`${oneLine(command)}\` → exit ${exit ?? '?'} · ${outcome.output.lineCount} line${outcome.output.lineCount === 1 ? '' : 's'}`,
          ok: exit === 0,
          blockId: outcome.block.id,
          at: Date.now(),
        });
        this.pending.push({ type: 'text', text: `The user ran a command themselves:\n${blockForModel(outcome.block, outcome.output)}` });
      } else if (outcome.kind !== 'cancelled') {
        this.items.push({ id: randomUUID(), role: 'error', text: outcome.message, at: Date.now() });
      }
    } finally {
      this.userStep = undefined;
      this.changed();
    }
  }

  newConversation(): ConversationView {
    this.cancel(true);
    this.planRunner = undefined;
    this.id = randomUUID();
    this.items = [];
    this.history = [];
    this.pending = [];
    this.pendingMessages = 0;
    this.usage = { inputTokens: 0, outputTokens: 0, contextTokens: 0 };
    this.sent.clear();
    this.sentChars = 0;
    this.changed();
    return this.view();
  }

  setModel(change: { backend?: BackendKind; model?: string }): ConversationView {
    this.override = { ...this.override, ...change };
    this.changed();
    return this.view();
  }

  async setKey(backend: BackendKind, key: string): Promise<AgentResults['agent.key']> {
    const stored = await this.host.keys.set(backend, key.trim());
    this.changed();
    return { stored };
  }

  /** A failure outside a request (a `! cmd` in a pane that closed) shown in the conversation. */
  reportError(error: unknown): void {
    this.host.log?.error('engine', 'the agent failed', error);
    this.addError(error instanceof Error ? error.message : String(error), { logged: true });
  }

  /** Settings changed (model, backend, endpoint): the panel's header and hint follow. */
  settingsChanged(): void {
    this.changed();
  }

  dispose(): void {
    this.cancel(true);
    clearTimeout(this.viewTimer);
    this.viewTimer = undefined;
  }

  // ── The loop ─────────────────────────────────────────────────────────────────────────

  private async runLoop(): Promise<void> {
    if (this.looping) return;
    this.looping = true;
    // "New conversation" replaces the history; a loop of the old one must not write into it.
    let conversation = this.id;
    try {
      while (this.pending.length > 0 && !this.planRunner?.waitingForUser) {
        conversation = this.id;
        appendMessage(this.history, 'user', this.takePending());
        for (;;) {
          const result = await this.requestModel();
          if (!result || this.id !== conversation) break;
          const toolUses = result.content.filter((part) => part.type === 'tool_use');
          if (toolUses.length === 0) break;
          const { results, stop } = await this.executeTools(toolUses);
          if (this.id !== conversation) break;
          appendMessage(this.history, 'user', results);
          if (stop) break;
          // Messages typed meanwhile go out with the tool results.
          if (this.pending.length > 0) appendMessage(this.history, 'user', this.takePending());
        }
      }
    } finally {
      this.looping = false;
      this.changed();
    }
  }

  private takePending(): AgentContent[] {
    const content = this.pending;
    this.pending = [];
    this.pendingMessages = 0;
    return content;
  }

  private async requestModel(): Promise<ModelResult | undefined> {
    const connection = this.connection();
    if (!connection.backend) {
      this.addError(connection.setupHint ?? 'No model is connected.');
      return undefined;
    }
    const limit = this.settings().sessionTokenBudget;
    if (limit > 0 && this.sessionTokens >= limit) {
      this.addError(
        `Stopped: this session has used ${this.sessionTokens.toLocaleString('en-US')} tokens, its budget of ${limit.toLocaleString('en-US')} ([ai] sessionTokenBudget). ` +
          'Raise it in Settings → AI (0 means no limit) to go on.',
      );
      return undefined;
    }
    const conversation = this.id;
    const item: Turn['item'] = { id: randomUUID(), role: 'assistant', text: '', streaming: true, at: Date.now() };
    const turn: Turn = { abort: new AbortController(), phase: 'thinking', item };
    this.turn = turn;
    this.items.push(item);
    const plan = new Plan(randomUUID().slice(0, 8));
    let planItemAdded = false;
    const settings = this.settings();
    const environment = scrubEnvironment(this.host.env, this.host.settings().context.include_env);
    const system = `${SYSTEM_PROMPT}\n\n${await this.standing.build(this.paneId(), settings.contextBlocks, environment)}`;
    const budget = Math.min(settings.historyTokenBudget, Math.floor(modelFacts(connection.model).contextWindow * 0.6));
    const { messages } = fitHistory(this.history, budget);
    this.usage.contextTokens = estimateTokens(system) + estimateMessagesTokens(messages);
    this.changed();
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const result = await connection.backend.stream(
            { model: connection.model, system, messages, tools: [RUN_COMMAND_TOOL, ...READ_ONLY_TOOLS], maxTokens: settings.maxOutputTokens },
            {
              text: (delta) => {
                item.text += delta;
                if (turn.phase !== 'streaming') {
                  turn.phase = 'streaming';
                  this.changed();
                }
                this.host.emit('agent.delta', { conversationId: this.id, itemId: item.id, text: delta });
              },
              sent: (body) => this.keepSent(item, body),
              toolUse: (call) => {
                if (call.name !== RUN_COMMAND_TOOL.name) return;
                const input = RunCommandInputSchema.safeParse(call.input);
                if (!input.success) return;
                const paneId = input.data.paneId ?? this.paneId();
                const step = plan.addStep({ toolUseId: call.id, command: input.data.command, purpose: input.data.purpose, paneId });
                if (!step) return;
                if (!planItemAdded) {
                  planItemAdded = true;
                  this.items.push({ id: `plan-${plan.id}`, role: 'plan', plan: plan.view(), at: Date.now() });
                }
                const cwd = (paneId !== undefined ? this.host.pane(paneId)?.cwd : undefined) ?? '';
                step.cwd = cwd || undefined;
                assessStepRisk(step, this.classify, cwd, () => this.planChanged(plan));
                this.planChanged(plan);
              },
            },
            turn.abort.signal,
          );
          item.streaming = false;
          if (this.id !== conversation) return undefined;
          this.usage.inputTokens += result.usage.inputTokens;
          this.usage.outputTokens += result.usage.outputTokens;
          this.countTokens(result.usage.inputTokens + result.usage.outputTokens);
          appendMessage(this.history, 'assistant', result.content);
          if (plan.steps.length > 0) this.planRunner = this.newPlanRunner(plan);
          return result;
        } catch (error) {
          const failure = error instanceof ModelError ? error : new ModelError('network', String(error));
          if (this.id !== conversation) return undefined;
          if (failure.kind === 'cancelled' || turn.abort.signal.aborted) return this.endTurnCancelled(item, plan);
          if (failure.retryable && attempt < MAX_RETRIES) {
            const waited = await this.waitBeforeRetry(turn, failure, attempt);
            if (!waited) return this.endTurnCancelled(item, plan);
            continue;
          }
          item.streaming = false;
          if (item.text) {
            item.interrupted = failure.message;
            // What arrived stays in the conversation, for the user and the model.
            appendMessage(this.history, 'assistant', [{ type: 'text', text: `${item.text}\n[The answer broke off here.]` }]);
          }
          this.dropPlanItem(plan);
          this.addError(failure.message);
          return undefined;
        }
      }
    } finally {
      this.turn = undefined;
      if (!item.text) this.items = this.items.filter((candidate) => candidate !== item);
      this.changed();
    }
  }

  private endTurnCancelled(item: Turn['item'], plan: Plan): undefined {
    item.streaming = false;
    if (item.text) {
      item.interrupted = 'Cancelled.';
      appendMessage(this.history, 'assistant', [{ type: 'text', text: `${item.text}\n[The user cancelled this answer here.]` }]);
    }
    this.dropPlanItem(plan);
    return undefined;
  }

  private dropPlanItem(plan: Plan): void {
    this.items = this.items.filter((candidate) => candidate.id !== `plan-${plan.id}`);
  }

  /** Waits before a retry with a countdown in the panel; false when the user cancelled. */
  private async waitBeforeRetry(turn: Turn, failure: ModelError, attempt: number): Promise<boolean> {
    const delay = failure.options.retryAfterMs ?? Math.min(30_000, (this.host.retryBaseMs ?? 1_000) * 2 ** attempt);
    const until = Date.now() + delay;
    turn.phase = 'retrying';
    return new Promise((resolve) => {
      const tick = () => {
        if (turn.abort.signal.aborted) return done(false);
        const left = until - Date.now();
        if (left <= 0) return done(true);
        this.retryDetail = `${failure.message} Retrying in ${Math.ceil(left / 1000)} s (attempt ${attempt + 2} of ${MAX_RETRIES + 1}); Esc cancels.`;
        this.changed();
        timer = setTimeout(tick, Math.min(1_000, left));
      };
      let timer: NodeJS.Timeout | undefined;
      const done = (ok: boolean) => {
        clearTimeout(timer);
        turn.abort.signal.removeEventListener('abort', onAbort);
        this.retryDetail = undefined;
        turn.phase = 'thinking';
        resolve(ok);
      };
      const onAbort = () => done(false);
      turn.abort.signal.addEventListener('abort', onAbort);
      tick();
    });
  }

  private abortTurn(): void {
    const turn = this.turn;
    if (!turn) return;
    turn.abort.abort();
    // The panel settles now, not when the connection has finished closing.
    turn.item.streaming = false;
    if (turn.item.text) turn.item.interrupted = 'Cancelled.';
    this.turn = undefined;
  }

  private async executeTools(toolUses: Extract<AgentContent, { type: 'tool_use' }>[]): Promise<{ results: AgentContent[]; stop: boolean }> {
    const results = new Map<string, { content: string; isError: boolean }>();
    for (const call of toolUses) {
      if (call.name === RUN_COMMAND_TOOL.name) continue;
      const cwd = this.cwd();
      const outcome = await runReadOnlyTool(call.name, call.input, {
        cwd,
        homeDir: this.host.env.HOME,
        refuse: (path) => this.refuseRead(call.name, path, cwd),
        pane: (id) => this.host.pane(id),
        defaultPaneId: this.paneId(),
      });
      this.items.push({ id: randomUUID(), role: 'tool', tool: call.name, summary: outcome.summary, ok: !outcome.isError, at: Date.now() });
      results.set(call.id, outcome);
      this.changed();
    }
    let stop = false;
    const runner = this.planRunner;
    if (runner) {
      for (const result of await runner.run()) results.set(result.toolUseId, result);
      stop = runner.plan.state === 'cancelled';
      if (runner.plan.note) this.pending.push({ type: 'text', text: runner.plan.note });
      this.planRunner = undefined;
    }
    const content: AgentContent[] = toolUses.map((call) => {
      const result = results.get(call.id) ?? runCommandRefusal(call);
      return { type: 'tool_result', tool_use_id: call.id, content: result.content, ...(result.isError ? { is_error: true } : {}) };
    });
    return { results: content, stop };
  }

  private newPlanRunner(plan: Plan): PlanRunner {
    return new PlanRunner(plan, {
      pane: (paneId) => this.host.pane(paneId),
      timeoutMs: () => this.settings().stepTimeoutSeconds * 1000,
      classify: this.classify,
      decide: (proposed) => this.host.gate.decide({ ...proposed, conversationId: this.id }),
      grant: (shape, command) => this.host.gate.grants.grant(shape, command),
      audit: (record) => void this.host.audit.append({ ...record, conversation: this.id, plan: plan.id }),
      executed: (step, cwd) => void this.afterExecution(plan, step, cwd),
      ownFiles: this.host.gate.ownFiles,
      changed: () => this.planChanged(plan),
    });
  }

  /** A file tool's read the policy refuses: the rule, and a line in the audit trail. */
  private refuseRead(tool: string, path: string, cwd: string): string | undefined {
    const verdict = this.host.gate.fileRead(path, cwd);
    if (!verdict) return undefined;
    void this.host.audit.append({
      event: 'denied',
      conversation: this.id,
      command: `${tool} ${path}`,
      cwd,
      decision: 'deny',
      decidedBy: { kind: 'policy', rule: verdict.rule },
    });
    return verdict.rule;
  }

  /** Post-exec hooks; a hook that fails is noted in the audit trail (it cannot undo the step). */
  private async afterExecution(plan: Plan, step: PlanStep, cwd: string): Promise<void> {
    const results = await this.host.gate.afterExecution({
      command: step.command,
      purpose: step.purpose,
      cwd,
      paneId: step.paneId,
      conversationId: this.id,
      planId: plan.id,
      step: step.index,
      level: step.risk?.level ?? 'yellow',
      reasons: step.risk?.reasons ?? [],
      exitCode: step.exitCode,
      durationMs: step.durationMs,
    });
    for (const result of results.filter((candidate) => !candidate.ok)) {
      this.host.log?.warning('hook', `post-exec hook ${result.hook} failed after \`${step.command}\`: ${result.message ?? 'no reason given'}`);
      void this.host.audit.append({
        event: 'failed',
        conversation: this.id,
        plan: plan.id,
        step: step.index,
        command: step.command,
        reason: `post-exec hook ${result.hook}: ${result.message ?? 'failed'}`,
      });
    }
  }

  /** The plan's item shows a fresh view of it. */
  private planChanged(plan: Plan): void {
    const item = this.items.find((candidate) => candidate.id === `plan-${plan.id}`);
    if (item && item.role === 'plan') item.plan = plan.view();
    this.changed();
  }

  private addNote(text: string, attachmentContent: string[]): void {
    this.items.push({ id: randomUUID(), role: 'user', text, source: 'note', attachments: [], at: Date.now() });
    const note = [
      ...attachmentContent,
      `Note from the user before the remaining steps: ${scrubSecrets(text).text}\nRevise the remaining steps accordingly.`,
    ].join('\n\n');
    this.planRunner?.addNote(note);
    this.changed();
  }

  private runnerFor(planId: string): PlanRunner {
    const runner = this.planRunner;
    if (!runner || runner.plan.id !== planId) throw new Error('That plan is no longer waiting for a decision.');
    return runner;
  }

  private async attachmentsFor(blockIds: string[]): Promise<{ view: AttachmentView; content: string }[]> {
    const attachments = [];
    for (const blockId of blockIds) {
      const paneId = Number(/^p(\d+)b\d+$/.exec(blockId)?.[1]);
      const pane = Number.isFinite(paneId) ? this.host.pane(paneId) : undefined;
      const block = pane?.blocks().find((candidate) => candidate.id === blockId);
      if (!pane || !block) continue;
      const output = await pane.outputOf(blockId);
      attachments.push({
        view: attachmentView(block, output?.text ?? ''),
        content: `The user attached this command block:\n${blockForModel(block, output)}`,
      });
    }
    return attachments;
  }

  // ── State ────────────────────────────────────────────────────────────────────────────

  private status(): AgentStatus {
    if (this.turn) return this.turn.phase;
    if (this.userStep || this.planRunner?.runningStep) return 'running-step';
    if (this.planRunner?.waitingForUser) return 'awaiting-approval';
    if (this.looping) return 'thinking';
    return 'idle';
  }

  private statusDetail(): string | undefined {
    if (this.turn?.phase === 'retrying') return this.retryDetail;
    return this.planRunner?.detail;
  }

  /**
   * The backend for the current settings, override and key. Building an SDK client is not
   * free and the view asks on every change, so it is rebuilt only when one of them changes.
   */
  private connection(): ModelConnection {
    const ai = this.host.settings().ai;
    const backend = this.override.backend ?? ai.backend;
    const key = `${JSON.stringify(ai)}|${JSON.stringify(this.override)}|${this.host.keys.get(backend) ?? ''}`;
    if (this.cachedConnection?.key !== key) {
      this.cachedConnection = { key, connection: connectModel(ai, this.override, this.host.env, this.host.keys) };
    }
    return this.cachedConnection.connection;
  }

  private cachedConnection: { key: string; connection: ModelConnection } | undefined;

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

  private keepSent(item: Turn['item'], body: object): void {
    this.sentChars -= this.sent.get(item.id)?.length ?? 0;
    this.sent.delete(item.id);
    const payload = JSON.stringify(body, null, 2);
    this.sent.set(item.id, payload);
    this.sentChars += payload.length;
    for (const [oldest, kept] of this.sent) {
      if (this.sentChars <= MAX_KEPT_REQUEST_CHARS || oldest === item.id) break;
      this.sent.delete(oldest);
      this.sentChars -= kept.length;
    }
    item.sent = true;
    for (const old of this.items) if (old.role === 'assistant' && old.sent && !this.sent.has(old.id)) old.sent = false;
  }

  private countTokens(tokens: number): void {
    this.sessionTokens += tokens;
    const limit = this.settings().sessionTokenBudget;
    if (limit > 0 && this.budgetWarnedAt !== limit && this.sessionTokens >= limit * BUDGET_WARNING_SHARE && this.sessionTokens < limit) {
      this.budgetWarnedAt = limit;
      this.addError(
        `This session has used ${Math.round((this.sessionTokens / limit) * 100)}% of its token budget ` +
          `(${this.sessionTokens.toLocaleString('en-US')} of ${limit.toLocaleString('en-US')}); the agent stops at 100%.`,
      );
    }
  }

  private addError(text: string, options: { logged?: boolean } = {}): void {
    if (!options.logged) this.host.log?.error('model', text);
    this.items.push({ id: randomUUID(), role: 'error', text, at: Date.now() });
    this.changed();
  }

  /**
   * The panel's view goes out once per turn of the event loop, after pending I/O: the view
   * grows with the conversation (about 1.3 ms to build after 20 plans), and a step's block
   * starting must not hold up the typed command's echo behind it.
   */
  private changed(): void {
    if (this.viewTimer) return;
    this.viewTimer = setTimeout(() => {
      this.viewTimer = undefined;
      this.host.emit('agent.conversation', this.view());
    }, 0);
  }
}

function attachmentView(block: Block, output: string): AttachmentView {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  return { blockId: block.id, command: block.command, exitCode: block.exitCode, cwd: block.cwd, excerpt: lines.slice(-5).join('\n') };
}

function runCommandRefusal(call: { input: unknown }): { content: string; isError: boolean } {
  const input = RunCommandInputSchema.safeParse(call.input);
  return {
    content: input.success
      ? 'Not run: a plan has at most 50 steps; propose the rest after these have run.'
      : `Not run: the tool input was invalid (${input.error.issues[0]?.message ?? 'bad input'}); "command" is required.`,
    isError: true,
  };
}

function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ⏎ ');
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
