import type { ConversationView, PlanStepView, StepAction } from '../../shared/agent';
import type { Events } from '../../shared/protocol';
import type { BackendKind } from '../agent/modelConnection';
import { Engine, type EngineOptions } from '../engine/engine';
import type { PaneListener } from '../panes/pane';
import type { AgentStreamEvent } from './agentStream';
import { ConversationEvents, kindOf, type PendingApproval } from './conversationEvents';
import { StepOutputStream } from './stepOutputStream';

/** How long the agent's shell may take to show its first prompt before the run says it has not. */
const FIRST_PROMPT_WAIT_MS = 15_000;

export interface HeadlessSessionOptions {
  engine: EngineOptions;
  cwd: string;
  shell?: string;
  cols: number;
  rows: number;
  model?: string;
  backend?: BackendKind;
  emit(event: AgentStreamEvent): void;
  /** A step waits for someone's decision (never called with --approve=policy or deny: those refuse). */
  askFor(pending: PendingApproval): void;
}

/**
 * One `tandem agent` run on the engine the desktop app uses: the same agent session, gate,
 * audit log and scrubbing, with the agent's own shell in its own pty as its one pane. The
 * session is the engine's one client; what the panel would be shown becomes the event stream.
 */
export class HeadlessSession implements PaneListener {
  readonly engine: Engine;
  readonly traceId: string;
  private paneId = 0;
  private readonly events: ConversationEvents;
  private readonly outputs: StepOutputStream;
  private idleWaiters: (() => void)[] = [];
  private promptWaiters: (() => void)[] = [];
  private exited: Events['pane.exit'] | undefined;
  private exitWaiters: ((exit: Events['pane.exit']) => void)[] = [];

  constructor(private readonly options: HeadlessSessionOptions) {
    this.engine = new Engine(options.engine);
    // The trace this run's spans are in: the one it was started in (TRACEPARENT, TANDEM_TRACE_ID), or its own.
    this.traceId = this.engine.tracer.runTraceId;
    this.outputs = new StepOutputStream(
      (blockId) => this.events.stepOfBlock(blockId) !== undefined,
      (blockId, text) => {
        const owner = this.events.stepOfBlock(blockId);
        if (owner && text) options.emit({ type: 'output', plan_id: owner.plan.id, step_id: owner.step.id, index: owner.step.index, text });
      },
      () => {
        this.events.recheck();
        this.checkIdle();
      },
      options.cols,
    );
    this.events = new ConversationEvents(options.emit, (step) => this.outputOf(step), options.askFor);
  }

  get sessionId(): string {
    return this.engine.agent.view().id;
  }

  get view(): ConversationView {
    return this.events.view ?? this.engine.agent.view();
  }

  get cwd(): string {
    return this.engine.pane(this.paneId).cwd;
  }

  get shell(): string {
    return this.engine.pane(this.paneId).info().shell;
  }

  /**
   * Starts the agent's shell. Its first prompt is not waited for: the first request can go
   * to the model meanwhile (a step waits for the prompt anyway, StepRunner), which takes the
   * shell's start off the time to the first token.
   */
  start(): void {
    this.engine.attachClient(this);
    if (this.options.backend || this.options.model) this.engine.agent.setModel({ backend: this.options.backend, model: this.options.model });
    const { paneId } = this.engine.createPane({ cols: this.options.cols, rows: this.options.rows, shell: this.options.shell, cwd: this.options.cwd }, this);
    this.paneId = paneId;
    // Watching before any step does: a block's output is here before the step hears it ended.
    this.engine.pane(paneId).observe({
      blockStarted: (block) => this.outputs.blockStarted(block.id),
      blockOutput: (blockId, bytes) => this.outputs.output(blockId, bytes),
      blockFinished: (block) => this.outputs.blockFinished(block.id),
    });
    this.noticeSlowPrompt();
    this.noticeUnusableConfig();
  }

  /** Sends an instruction (with piped data before it) and resolves once the agent is idle again. */
  async instruct(text: string, data?: string): Promise<void> {
    await this.engine.agent.send({ text, attachments: [], paneId: this.paneId, data }, 'prompt');
    await this.untilIdle();
  }

  /** `--auto`: the task runs as `!auto` does, until the agent says it is done or a limit ends it. */
  async auto(task: string, data?: string): Promise<void> {
    await this.engine.agent.startAuto(this.paneId, task, data);
    await this.untilIdle();
  }

  decide(pending: PendingApproval, action: StepAction, options: { command?: string; reason?: string } = {}): void {
    void this.engine.agent.stepAction(pending.plan.id, pending.step.id, action, options.command, options.reason);
  }

  /** A note for the model before the remaining steps (an approval's `note`). */
  note(text: string): void {
    this.engine.agent.note(text);
  }

  /** `interrupt`: the running step gets Ctrl+C, a streaming answer stops, a waiting plan is cancelled. */
  interrupt(): void {
    this.engine.agent.cancel(false);
  }

  /** Everything stops, and the running step's process group is killed (SIGINT, SIGTERM, a time limit). */
  stopEverything(): void {
    this.engine.agent.cancel(true);
    if (this.paneId) this.engine.pane(this.paneId).killForeground();
  }

  /** The shell ended (it exited, or could not start). */
  get shellExit(): Events['pane.exit'] | undefined {
    return this.exited;
  }

  untilShellExit(): Promise<Events['pane.exit']> {
    return this.exited ? Promise.resolve(this.exited) : new Promise((resolve) => this.exitWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.outputs.dispose();
    await this.engine.shutdown();
  }

  // ── The engine's client ─────────────────────────────────────────────────────────────

  /**
   * The pane's raw output (its prompt, the typed commands) is not part of the stream — steps'
   * output comes from the watcher above — but it is acknowledged at once, as a window does
   * once it has drawn it: the delivery window would otherwise fill and hold the pty.
   */
  output(paneId: number, bytes: Uint8Array): void {
    this.engine.pane(paneId).acknowledge(bytes.length);
  }

  event<E extends keyof Events>(event: E, payload: Events[E]): void {
    switch (event) {
      case 'agent.conversation':
        this.events.update(payload as ConversationView);
        this.checkIdle();
        return;
      case 'agent.delta': {
        const delta = payload as Events['agent.delta'];
        if (delta.text) this.events.delta(delta.itemId, delta.text);
        return;
      }
      case 'pane.state':
        if ((payload as Events['pane.state']).state === 'PROMPT') this.wake('prompt');
        return;
      case 'pane.notice': {
        const notice = payload as Events['pane.notice'];
        this.options.emit({ type: 'notice', level: notice.level, message: notice.message });
        return;
      }
      case 'pane.exit': {
        const exit = payload as Events['pane.exit'];
        this.exited = exit;
        this.options.emit({ type: 'notice', level: 'error', message: exit.message });
        for (const wake of this.exitWaiters.splice(0)) wake(exit);
        this.wake('prompt');
        return;
      }
      default:
        return;
    }
  }

  // ── Waiting ─────────────────────────────────────────────────────────────────────────

  private outputOf(step: PlanStepView): { drained: boolean; omitted: () => number } {
    if (!step.blockId || kindOf(step) !== 'command') return { drained: true, omitted: () => 0 };
    const blockId = step.blockId;
    this.outputs.flushBlock(blockId);
    return { drained: this.outputs.drained(blockId), omitted: () => this.outputs.take(blockId) };
  }

  /** Resolves at the shell's first prompt, when it ended, or after FIRST_PROMPT_WAIT_MS (an editor's session/new waits for it). */
  firstPrompt(): Promise<void> {
    if (this.engine.pane(this.paneId).state === 'PROMPT' || this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, FIRST_PROMPT_WAIT_MS);
      timer.unref?.();
      this.promptWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** A config.toml or policy.toml that cannot be used is said at the start, as the app's banner says it. */
  private noticeUnusableConfig(): void {
    const { settingsError, settingsNotice, configPath, policyProblems } = this.engine.hello();
    if (settingsError) this.options.emit({ type: 'notice', level: 'warning', message: `${configPath} cannot be used, so this run has the default settings: ${settingsError}` });
    if (settingsNotice) this.options.emit({ type: 'notice', level: 'info', message: `${configPath}: ${settingsNotice}` });
    for (const problem of policyProblems ?? []) this.options.emit({ type: 'notice', level: 'warning', message: problem });
  }

  /** Says so when the shell shows no prompt for a long while (its rc files hang, say); steps wait for it meanwhile. */
  private noticeSlowPrompt(): void {
    if (this.engine.pane(this.paneId).state === 'PROMPT') return;
    const timer = setTimeout(() => {
      if (!this.exited) this.options.emit({ type: 'notice', level: 'warning', message: `The agent's shell has shown no prompt within ${FIRST_PROMPT_WAIT_MS / 1000} s; its steps wait for one.` });
    }, FIRST_PROMPT_WAIT_MS);
    timer.unref?.();
    this.promptWaiters.push(() => clearTimeout(timer));
  }

  /**
   * Resolves once the agent is idle (nothing streams, runs or waits), the last view it sent
   * shows that, and every step that ended has had its output and end sent. The loop starts inside `send`, so an idle agent here is
   * one that finished (or never started).
   */
  private untilIdle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.checkIdle();
    });
  }

  private checkIdle(): void {
    // The view must say so too: the agent may have just finished while its last view is still on its way.
    if (this.idleWaiters.length === 0 || this.engine.agent.working || this.view.status !== 'idle' || this.events.unsentEnds() > 0) return;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private wake(what: 'prompt'): void {
    if (what === 'prompt') for (const wake of this.promptWaiters.splice(0)) wake();
  }
}
