import { randomUUID } from 'node:crypto';
import type { EngineLog } from '../../log/engineLog';
import type { ApprovalGate } from '../../safety/approval/approvalGate';
import type { AuditLog } from '../../safety/audit/auditLog';
import { scrubSecrets } from '../../safety/secretScrubber';
import { redactionNote } from '../redactionNote';
import type { AgentPane } from '../agentPane';
import type { AgentContent, ComputerToolDefinition, ToolDefinition, ToolResultContent } from '../backends/modelBackend';
import { desktopOffer, NO_DESKTOP, type DesktopOffer, type OfferConnection } from '../vision/desktopOffer';
import { computerTool } from './computerTool';
import type { Conversation } from '../conversation/conversation';
import { CommandRisks } from '../plan/commandRisks';
import { Plan, type PlanRules } from '../plan/plan';
import { MAX_PLAN_STEPS, type PlanStep } from '../plan/planStep';
import { PlanRunner } from '../plan/planRunner';
import { refuseEditOnRemoteHost, remotePaneNote, withNote } from '../remoteSteps';
import { EditSteps } from '../fileEdits/editSteps';
import type { Summarizer } from '../summarizer/summarizer';
import type { ListenSteps } from '../hearing/listenSteps';
import { LookSteps } from '../vision/lookSteps';
import { ScreenshotMemory } from '../vision/screenshotMemory';
import { UiSteps } from '../vision/uiSteps';
import type { PlanView } from '../../../shared/agent';
import type { Desktop } from '../../desktop/desktop';
import type { AgentTracing } from '../../telemetry/agentTracing';
import type { AgentTool, CommandTool, GatedTool, ImmediateTool, ToolHistory, ToolResult } from './agentTool';
import type { ChildAgentView } from '../../../shared/agent';
import { isPending } from '../../../shared/planSteps';
import { ChildAgents, type ChildAgentsHost } from '../children/childAgents';
import { spawnAgentTool } from '../children/spawnAgentTool';

type ToolCall = { id: string; name: string; input: unknown };

/** What the dispatcher needs from the agent session. */
export interface ToolDispatcherHost {
  pane(paneId: number): AgentPane | undefined;
  /** The active pane: where calls that name none work. */
  paneId(): number | undefined;
  cwd(): string;
  homeDir: string | undefined;
  /** The panel's items, and the id audit lines carry. */
  conversation: Conversation;
  gate: ApprovalGate;
  audit: Pick<AuditLog, 'append'>;
  log?: Pick<EngineLog, 'warning'>;
  stepTimeoutMs(): number;
  /** The environment plan steps run with (see NO_PAGER_ENV), or undefined. */
  stepEnv?(): Readonly<Record<string, string>> | undefined;
  /** The spans of plan steps. */
  tracing?: Pick<AgentTracing, 'stepsChanged' | 'stepEnvironment' | 'stepIds' | 'callRefused'>;
  /** How the next plan differs (an `!auto` run's), or undefined for an ordinary plan. */
  planRules?(): PlanRules | undefined;
  /** Summaries for `terminal_history` (the small model, or local filtering). */
  summarizer?: Summarizer;
  /** Screenshots and the window list; absent: look steps say it is not available. */
  desktop?: Desktop;
  /** `listen` steps; absent: they are refused. */
  hearing?: ListenSteps;
  /** The block history: who ran a step's block, and `search_history`'s records; absent: neither. */
  history?: ToolHistory;
  /** How child agents start here (spawn_agent); absent: the tool is not offered. */
  childAgents?: Pick<ChildAgentsHost, 'selfCommand' | 'depth' | 'maxDepth' | 'budgetLeftUsd' | 'asks' | 'model' | 'childCost' | 'grantsToPass'>;
}

/**
 * Runs the model's tool calls through the registry. A call of a tool that needs no approval
 * runs when the response is complete; calls of a gated tool become the steps of the
 * response's plan as they stream in, and the plan runs (with the user's decisions) after the
 * immediate calls. Every call gets its result, in the model's order.
 */
export class ToolDispatcher {
  private readonly risks: CommandRisks;
  /** The plan of the response that is streaming. */
  private proposal: PlanRunner | undefined;
  /** The plan of the last complete response, until it has run. */
  private runner: PlanRunner | undefined;
  /** Plans with edit steps, for Undo on their cards (until the conversation is reset). */
  private readonly editPlans = new Map<string, PlanRunner>();
  private readonly edits: EditSteps;
  private readonly looks: LookSteps;
  private readonly ui: UiSteps;
  /** What the last request offered: a look reports OCR boxes in the computer tool's display when that tool was offered. */
  private offer: DesktopOffer = NO_DESKTOP;
  /** The child agents of spawn_agent steps. */
  readonly childAgents: ChildAgents;

  constructor(
    private readonly tools: readonly AgentTool[],
    private readonly host: ToolDispatcherHost,
  ) {
    this.risks = new CommandRisks((command, cwd, environment, remote) => host.gate.classify(command, cwd, environment, remote));
    const memory = new ScreenshotMemory();
    this.looks = new LookSteps({ desktop: host.desktop, gate: host.gate, pane: (paneId) => host.pane(paneId), memory, computerOffered: () => this.offer.computerDisplay !== undefined, hearing: host.hearing });
    this.ui = new UiSteps({ desktop: host.desktop, gate: host.gate, memory });
    this.edits = new EditSteps({
      homeDir: host.homeDir,
      decide: async (proposed) =>
        refuseEditOnRemoteHost(proposed.paneId === undefined ? undefined : host.pane(proposed.paneId), proposed) ??
        host.gate.decideEdit({ ...proposed, conversationId: host.conversation.id }),
    });
    this.childAgents = new ChildAgents({
      selfCommand: () => host.childAgents?.selfCommand(),
      depth: host.childAgents?.depth ?? 0,
      maxDepth: () => host.childAgents?.maxDepth() ?? 0,
      budgetLeftUsd: () => host.childAgents?.budgetLeftUsd?.(),
      model: host.childAgents?.model,
      childCost: host.childAgents?.childCost,
      grantsToPass: host.childAgents?.grantsToPass,
      asks: host.childAgents?.asks,
      policyVerdict: (command, cwd) => host.gate.policyVerdict(command, cwd),
      runPolicyFiles: () => host.gate.runPolicyFiles(),
      changed: (toolUseId, view) => this.childChanged(toolUseId, view),
      ended: (view) => {
        if (view.usage) host.conversation.countChildUsage(view.usage);
        host.conversation.changed();
      },
    });
  }

  /**
   * The tools offered for a request: the screen tools only where they can work (none without
   * a display), with Anthropic's computer-use tool in place of `screenshot` and `ui_action`
   * when the model can use it, the setting allows it, and clicks reach the whole screen; each
   * described for the tools offered beside it.
   */
  async definitions(connection: OfferConnection): Promise<{ tools: ToolDefinition[]; computerTool?: ComputerToolDefinition }> {
    const offer = await desktopOffer(this.host.desktop, connection, this.tools.includes(computerTool));
    this.offer = offer;
    const offered = this.tools.filter((tool) => (tool.offeredWith?.(offer) ?? true) && (tool !== spawnAgentTool || this.spawnsChildren()));
    const display = offer.computerDisplay;
    return { tools: offered.map((tool) => tool.definitionWith?.(offer) ?? tool.definition), ...(display ? { computerTool: computerTool.definitionFor(display) } : {}) };
  }

  /** The plan waiting for decisions or running. */
  get plan(): PlanRunner | undefined {
    return this.runner;
  }

  /** A tool call arrived while the response streams: a gated one proposes a step. */
  toolUse(call: ToolCall): void {
    const tool = this.find(call.name);
    if (tool?.approval !== 'gate') return;
    const proposed = tool.propose(call.input);
    if (!proposed.ok) return;
    const runner = (this.proposal ??= this.newRunner(new Plan(randomUUID().slice(0, 8), this.host.planRules?.())));
    const paneId = proposed.step.paneId ?? this.host.paneId();
    const step = proposed.step.spawn ? { ...proposed.step, ...this.childAgents.prepare(call.id, proposed.step.spawn, (paneId !== undefined ? this.host.pane(paneId)?.cwd : undefined) || this.host.cwd()) } : this.looks.named(proposed.step);
    if (!runner.propose(call, { ...step, paneId })) return;
    if (proposed.step.edit) this.editPlans.set(runner.plan.id, runner);
    if (runner.plan.steps.length === 1) this.host.conversation.addPlan(this.planView(runner.plan));
  }

  /** The response is complete: its plan waits for decisions. */
  responseComplete(): void {
    this.runner = this.proposal;
    this.proposal = undefined;
    this.runner?.present();
  }

  /** The response was cancelled or failed: its plan goes with it. */
  responseDropped(): void {
    if (this.proposal) this.host.conversation.removePlan(this.proposal.plan.id);
    this.proposal?.plan.steps.forEach((step) => this.childAgents.stepEnded(step.toolUseId));
    this.proposal = undefined;
  }

  /** A new conversation: plans of the old one are forgotten (cancel them first). */
  reset(): void {
    this.proposal = undefined;
    this.runner = undefined;
    this.editPlans.clear();
    this.looks.reset();
    this.ui.reset();
  }

  /**
   * Undo on a finished edit step's card: the file gets its previous content back when it is
   * still as the edit left it; the card says what happened, and the model hears of it with the
   * next message.
   */
  async undoEdit(planId: string, stepId: string): Promise<void> {
    const runner = this.editPlans.get(planId);
    const step = runner?.plan.step(stepId);
    if (!runner || !step?.edit) throw new Error('That edit is no longer in this conversation.');
    if (step.status !== 'done' || !this.edits.canUndo(stepId)) throw new Error(`Step ${step.index} has no applied edit to undo.`);
    const outcome = await this.edits.undo(stepId);
    runner.undone(stepId, outcome);
    if (outcome.restored) this.host.conversation.queue([{ type: 'text', text: `(The user undid your step "${step.command}": ${outcome.message})` }]);
  }

  /** A screenshot step's image as a data: URL (its ScreenshotView id). */
  image(id: string): string {
    return this.looks.image(id);
  }

  /** The results of a response's calls; `stop` when the user cancelled its plan, `note` when they steered it. */
  async execute(calls: ToolCall[]): Promise<{ results: AgentContent[]; stop: boolean; note?: string }> {
    const results = new Map<string, { content: ToolResultContent; isError: boolean }>();
    for (const call of calls) {
      const tool = this.find(call.name);
      if (tool?.approval === 'gate') continue;
      const outcome = tool ? await this.runImmediate(tool, call) : unknownTool(call.name);
      this.host.conversation.add({
        id: randomUUID(),
        role: 'tool',
        tool: call.name,
        summary: outcome.summary,
        ok: !outcome.isError,
        redacted: redactionNote(outcome.content),
        at: Date.now(),
      });
      results.set(call.id, outcome);
    }
    let stop = false;
    let note: string | undefined;
    const runner = this.runner;
    if (runner) {
      for (const result of await runner.run()) results.set(result.toolUseId, result);
      runner.plan.steps.forEach((step) => this.childAgents.stepEnded(step.toolUseId));
      stop = runner.plan.state === 'cancelled';
      note = runner.plan.note;
      this.runner = undefined;
    }
    const active = this.activePane();
    const content: AgentContent[] = calls.map((call) => {
      const result = results.get(call.id) ?? this.refused(call);
      const shown = withNote(result.content, remotePaneNote(call.name, active));
      return { type: 'tool_result', tool_use_id: call.id, content: shown, ...(result.isError ? { is_error: true } : {}) };
    });
    return { results: content, stop, note };
  }

  /** A child agent's view changed: its spawn step's card shows it. */
  private childChanged(toolUseId: string, view: ChildAgentView): void {
    for (const runner of [this.runner, this.proposal]) {
      const copy = { ...view, steps: view.steps.map((taken) => ({ ...taken })), asking: [...view.asking], filesChanged: [...view.filesChanged] };
      if (!runner?.plan.childChanged(toolUseId, copy)) continue;
      this.host.conversation.updatePlan(runner.plan.view());
      return;
    }
  }

  private spawnsChildren(): boolean {
    const children = this.host.childAgents;
    return children !== undefined && children.selfCommand() !== undefined && children.depth < children.maxDepth();
  }

  private activePane(): AgentPane | undefined {
    const paneId = this.host.paneId();
    return paneId !== undefined ? this.host.pane(paneId) : undefined;
  }

  private find(name: string): AgentTool | undefined {
    return this.tools.find((tool) => tool.definition.name === name);
  }

  private async runImmediate(tool: ImmediateTool, call: ToolCall): Promise<ToolResult> {
    const cwd = this.host.cwd();
    const remoteHost = this.activePane()?.remote?.host;
    const result = await tool.run(call.input, {
      cwd,
      remoteHost,
      homeDir: this.host.homeDir,
      refuse: (path) => this.refuseRead(call.name, path, cwd),
      pane: (paneId) => this.host.pane(paneId),
      defaultPaneId: this.host.paneId(),
      summarizer: this.host.summarizer,
      history: this.host.history,
    });
    return { ...result, content: scrubSecrets(result.content).text };
  }

  private gatedTool(name: string): GatedTool {
    const tool = this.find(name);
    if (tool?.approval !== 'gate') throw new Error(`${name} is not a tool whose calls are plan steps.`);
    return tool;
  }

  private commandTool(name: string): CommandTool {
    const tool = this.gatedTool(name);
    if (tool.steps !== 'command') throw new Error(`${name} is not a tool whose steps are commands.`);
    return tool;
  }

  /** A gated call without a step: the model is told why, and the trace has a span that says so. */
  private refused(call: ToolCall): { content: string; isError: boolean } {
    this.host.tracing?.callRefused({ tool: call.name, toolUseId: call.id });
    return this.refusal(call);
  }

  /** The plan as its card shows it: each step with its place in the trace. */
  private planView(plan: Plan): PlanView {
    const view = plan.view();
    const tracing = this.host.tracing;
    if (!tracing) return view;
    return { ...view, steps: view.steps.map((step) => ({ ...step, ...tracing.stepIds(step.id) })) };
  }

  /** Why a gated call has no step: its input was invalid, or the plan was full. */
  private refusal(call: ToolCall): { content: string; isError: boolean } {
    const proposed = this.gatedTool(call.name).propose(call.input);
    if (!proposed.ok) return { content: proposed.refusal, isError: true };
    return { content: `Not run: a plan has at most ${MAX_PLAN_STEPS} steps; propose the rest after these have run.`, isError: true };
  }

  private newRunner(plan: Plan): PlanRunner {
    const { gate, audit, conversation } = this.host;
    return new PlanRunner(plan, {
      pane: (paneId) => this.host.pane(paneId),
      timeoutMs: () => this.host.stepTimeoutMs(),
      stepEnv: (step) => withTraceContext(this.host.stepEnv?.(), step && this.host.tracing?.stepEnvironment(step.id)),
      stepsChanged: (steps, at) => {
        this.host.tracing?.stepsChanged(steps, at);
        // A spawn step that ended (or will never run): its child's channel closes and its usage counts.
        for (const step of steps) if (!isPending(step)) this.childAgents.stepEnded(step.toolUseId);
      },
      risk: (command, cwd, environment, remote) => this.risks.of(command, cwd, environment, remote),
      decide: async (proposed, risk) => this.childAgents.judge(proposed.command, await gate.decide({ ...proposed, conversationId: conversation.id }, risk)),
      grant: (shape, command) => gate.grants.grant(shape, command),
      audit: (record) => void audit.append({ ...record, conversation: conversation.id, plan: plan.id }),
      report: (step, run, ownFilesChanged) => this.commandTool(step.tool).report(step, run, ownFilesChanged),
      edits: this.edits,
      looks: this.looks,
      ui: this.ui,
      conversationId: conversation.id,
      executed: (step, cwd) => void this.afterExecution(plan, step, cwd),
      blockStarted: (step, blockId) => this.host.history?.claim(blockId, { auto: plan.auto, decider: step.decider, conversation: conversation.id }),
      ownFiles: gate.ownFiles,
      changed: () => conversation.updatePlan(this.planView(plan)),
    });
  }

  /** A file tool's read the policy refuses: the rule, and a line in the audit trail. */
  private refuseRead(tool: string, path: string, cwd: string): string | undefined {
    const verdict = this.host.gate.fileRead(path, cwd);
    if (!verdict) return undefined;
    void this.host.audit.append({
      event: 'denied',
      conversation: this.host.conversation.id,
      command: `${tool} ${path}`,
      cwd,
      decision: 'deny',
      decidedBy: { kind: 'policy', rule: verdict.rule },
    });
    return verdict.rule;
  }

  /** Post-exec hooks; a hook that fails is noted in the audit trail (it cannot undo the step). */
  private async afterExecution(plan: Plan, step: Readonly<PlanStep>, cwd: string): Promise<void> {
    const conversation = this.host.conversation.id;
    const results = await this.host.gate.afterExecution({
      tool: step.tool,
      command: step.command,
      purpose: step.purpose,
      cwd,
      paneId: step.paneId,
      remote: step.approval?.host !== undefined ? { host: step.approval.host } : undefined,
      conversationId: conversation,
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
        conversation: this.host.conversation.id,
        plan: plan.id,
        step: step.index,
        command: step.command,
        reason: `post-exec hook ${result.hook}: ${result.message ?? 'failed'}`,
      });
    }
  }
}

function unknownTool(name: string): ToolResult {
  return { content: `There is no tool named ${name}.`, isError: true, summary: `unknown tool ${name}` };
}

/** The step's trace variables go with the no-pager ones (and alone when the pager is wanted). */
function withTraceContext(env: Readonly<Record<string, string>> | undefined, trace: Record<string, string> | undefined): Readonly<Record<string, string>> | undefined {
  if (!trace || Object.keys(trace).length === 0) return env;
  return { ...env, ...trace };
}
