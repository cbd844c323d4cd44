import type { PlanStepView } from '../../shared/agent';
import type { TurnEnd } from '../agent/modelTurn';
import { costUsd } from '../agent/modelPrices';
import { scrubSecrets } from '../safety/secretScrubber';
import type { Span } from './span';
import type { Tracer } from './tracer';

/** The OpenTelemetry GenAI semantic conventions version the attribute names follow (docs/telemetry.md). */
export const GEN_AI_CONVENTIONS = '1.37.0';

const PROVIDER_NAMES: Record<string, string> = { anthropic: 'anthropic', 'openai-compatible': 'openai' };

/** Who a root's model requests were for (`tandem usage` sums by it). */
export type UsageSource = 'panel' | 'auto' | 'headless' | 'child' | 'summarizer';

interface Action {
  type: string;
  command?: string;
  exit?: number;
  duration_ms?: number;
  approval?: string;
}

/**
 * The agent's spans: each run of the loop (an instruction, a retry, an auto task) is an
 * `invoke_agent` root, each model request a `chat {model}` under it, each plan step an
 * `execute_tool {tool}`. Without `include_content` no prompt or command text is recorded.
 */
export class AgentTracing {
  private root: Span | undefined;
  private pendingInstruction: string | undefined;
  private tokens = { in: 0, out: 0 };
  private actions: Action[] = [];
  private model: { backend: string; model: string } | undefined;
  private readonly steps = new Map<string, Span>();
  private source: UsageSource;

  /** `headless`: a `tandem agent` run (a child one when its environment carries a parent trace). */
  constructor(
    private readonly tracer: Tracer,
    private readonly conversationId: () => string,
    private readonly headless = false,
  ) {
    this.source = this.runSource('panel');
  }

  /** The user's message that the next loop answers; `auto` for an `!auto` run's task. */
  instruction(text: string, from: 'panel' | 'auto' = 'panel'): void {
    this.pendingInstruction = text;
    this.source = this.runSource(from);
  }

  loopStarted(): void {
    this.root?.end();
    const root = (this.root = this.tracer.startRoot('invoke_agent'));
    this.tokens = { in: 0, out: 0 };
    this.actions = [];
    this.model = undefined;
    const instruction = this.pendingInstruction;
    this.pendingInstruction = undefined;
    if (!root) return;
    root.set({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'tandem', 'gen_ai.conversation.id': this.conversationId(), 'tandem.trace.depth': this.tracer.depth, 'tandem.source': this.source });
    if (instruction !== undefined && this.tracer.includeContent) root.field('instruction', scrubSecrets(instruction).text);
  }

  loopEnded(result: 'success' | 'failed'): void {
    const root = this.root;
    this.root = undefined;
    if (!root) return;
    for (const span of this.steps.values()) span.end();
    this.steps.clear();
    if (result === 'failed') root.fail();
    root
      .set({ 'gen_ai.usage.input_tokens': this.tokens.in, 'gen_ai.usage.output_tokens': this.tokens.out, 'gen_ai.provider.name': this.model && PROVIDER_NAMES[this.model.backend], 'gen_ai.request.model': this.model?.model })
      .field('backend', this.model?.backend)
      .field('model', this.model?.model)
      .field('actions', this.actions)
      .field('tokens_in', this.tokens.in)
      .field('tokens_out', this.tokens.out)
      .field('result', result)
      .end();
  }

  chatStarted(connection: { backendKind: string; model: string }): Span | undefined {
    this.model = { backend: connection.backendKind, model: connection.model };
    return this.chatSpan(this.tracer.startChild(`chat ${connection.model}`, this.root), connection, this.source);
  }

  /** A small-model summary request: under the running instruction when there is one, else a root of its own. */
  summaryStarted(connection: { backendKind: string; model: string }): Span | undefined {
    const span = this.root ? this.tracer.startChild(`chat ${connection.model}`, this.root) : this.tracer.startRoot(`chat ${connection.model}`);
    return this.chatSpan(span, connection, 'summarizer');
  }

  summaryEnded(span: Span | undefined, model: string, outcome: { usage: { inputTokens: number; outputTokens: number } } | { error: string }): void {
    if ('usage' in outcome) this.recordUsage(span, model, outcome.usage);
    else span?.fail().set({ 'error.type': outcome.error });
    span?.end();
  }

  chatEnded(span: Span | undefined, end: TurnEnd): void {
    if (end.kind === 'answered') {
      this.tokens.in += end.result.usage.inputTokens;
      this.tokens.out += end.result.usage.outputTokens;
      this.recordUsage(span, this.model?.model ?? '', end.result.usage);
    } else if (end.kind === 'failed') {
      span?.fail().set({ 'error.type': end.error.kind, 'tandem.request.attempts': end.attempts });
    } else {
      span?.set({ 'tandem.request.cancelled': true });
    }
    span?.end();
  }

  stepStarted(step: PlanStepView & { tool: string; toolUseId: string }): void {
    const span = this.tracer.startChild(`execute_tool ${step.tool}`, this.root);
    if (!span) return;
    this.steps.set(step.id, span);
    span.set({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': step.tool,
      'gen_ai.tool.call.id': step.toolUseId,
      'gen_ai.tool.type': 'function',
      'gen_ai.conversation.id': this.conversationId(),
      'tandem.step.kind': step.kind ?? 'command',
      'tandem.step.index': step.index,
      'tandem.step.level': step.risk?.level,
      'tandem.approval.by': step.decider?.by,
    });
    if (step.decider) span.event('approval', { 'tandem.approval.verdict': step.decider.verdict, 'tandem.approval.by': step.decider.by, 'tandem.approval.rule': step.decider.rule });
    if (this.tracer.includeContent) span.field('command', scrubSecrets(step.command).text);
  }

  /** The trace variables for the step's shell (empty when it has no span). */
  stepEnvironment(stepId: string): Record<string, string> {
    const span = this.steps.get(stepId);
    return span ? this.tracer.environmentFor(span) : {};
  }

  stepEnded(step: PlanStepView): void {
    const span = this.steps.get(step.id);
    if (!span) return;
    this.steps.delete(step.id);
    const action: Action = {
      type: !step.kind || step.kind === 'command' ? 'shell' : step.kind,
      ...(this.tracer.includeContent ? { command: scrubSecrets(step.command).text } : {}),
      exit: step.exitCode,
      duration_ms: step.durationMs,
      approval: step.decider?.by,
    };
    this.actions.push(action);
    if (step.status === 'failed') span.fail();
    span
      .set({ 'process.exit.code': step.exitCode, 'tandem.step.status': step.status, 'tandem.step.detail': step.detail && this.tracer.includeContent ? step.detail : undefined })
      .field('type', action.type)
      .field('exit', step.exitCode)
      .field('approval', step.decider?.by)
      .end();
  }

  private chatSpan(span: Span | undefined, connection: { backendKind: string; model: string }, source: UsageSource): Span | undefined {
    return span?.set({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': PROVIDER_NAMES[connection.backendKind] ?? connection.backendKind,
      'gen_ai.request.model': connection.model,
      'gen_ai.conversation.id': this.conversationId(),
      'tandem.source': source,
    });
  }

  /** Tokens and, when the model has a price, `tandem.cost_usd` (absent: cost unknown). */
  private recordUsage(span: Span | undefined, model: string, usage: { inputTokens: number; outputTokens: number }): void {
    span
      ?.set({ 'gen_ai.usage.input_tokens': usage.inputTokens, 'gen_ai.usage.output_tokens': usage.outputTokens, 'tandem.cost_usd': costUsd(model, usage) })
      .field('tokens_in', usage.inputTokens)
      .field('tokens_out', usage.outputTokens);
  }

  private runSource(from: 'panel' | 'auto'): UsageSource {
    if (!this.headless) return from;
    return this.tracer.inheritsTrace ? 'child' : 'headless';
  }
}
