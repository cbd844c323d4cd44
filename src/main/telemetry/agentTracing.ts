import { costUsd } from '../agent/modelPrices';
import type { TurnEnd } from '../agent/modelTurn';
import { scrubSecrets } from '../safety/secretScrubber';
import type { Span } from './span';
import { StepSpans, type StepAction, type StepTraceIds, type TracedStep } from './stepSpans';
import type { Tracer } from './tracer';

/** The OpenTelemetry GenAI semantic conventions version the attribute names follow (docs/telemetry.md). */
export const GEN_AI_CONVENTIONS = '1.37.0';

interface BackendModel {
  backend: string;
  model: string;
}
/** A connection as the spans name it. */
type ChatBackend = { backendKind: string; model: string };
const backendName = (connection: ChatBackend) => `${connection.backendKind} ${connection.model}`;

const PROVIDER_NAMES: Record<string, string> = { anthropic: 'anthropic', 'openai-compatible': 'openai' };

/** Who a root's model requests were for (`tandem usage` sums by it). */
export type UsageSource = 'panel' | 'auto' | 'headless' | 'child' | 'summarizer';

/**
 * The agent's spans: each run of the loop (an instruction, a retry, an auto task) is an
 * `invoke_agent` root, each model request a `chat {model}` under it, each plan step an
 * `execute_tool {tool}`. Without `include_content` no prompt or command text is recorded.
 */
export class AgentTracing {
  private root: Span | undefined;
  private pendingInstruction: string | undefined;
  private tokens = { in: 0, out: 0 };
  private actions: StepAction[] = [];
  /** The backend of the last request, and of the last answer: the root names the one that answered (after a fallback, the next one). */
  private tried: BackendModel | undefined;
  private answered: BackendModel | undefined;
  private readonly steps: StepSpans;
  private source: UsageSource;

  constructor(
    private readonly tracer: Tracer,
    private readonly conversationId: () => string,
    /** `headless`: a `tandem agent` run (a child one when its environment carries a parent trace). */
    private readonly headless = false,
  ) {
    this.steps = new StepSpans(tracer, conversationId, (action) => this.actions.push(action));
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
    this.tried = this.answered = undefined;
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
    this.steps.endOpen();
    if (result === 'failed') root.fail();
    const model = this.answered ?? this.tried;
    root
      .set({ 'gen_ai.usage.input_tokens': this.tokens.in, 'gen_ai.usage.output_tokens': this.tokens.out, 'gen_ai.provider.name': model && PROVIDER_NAMES[model.backend], 'gen_ai.request.model': model?.model })
      .field('backend', model?.backend)
      .field('model', model?.model)
      .field('actions', this.actions)
      .field('tokens_in', this.tokens.in)
      .field('tokens_out', this.tokens.out)
      .field('result', result)
      .end();
  }

  /** A request to a backend; `fallbackFrom` is the backend that could not be reached before it. */
  chatStarted(connection: ChatBackend, fallbackFrom?: ChatBackend): Span | undefined {
    this.tried = { backend: connection.backendKind, model: connection.model };
    return this.chatSpan(this.tracer.startChild(`chat ${connection.model}`, this.root), connection, this.source)?.set({ 'tandem.fallback.from': fallbackFrom && backendName(fallbackFrom) });
  }

  /** A small-model summary request: under the running instruction when there is one, else a root of its own. */
  summaryStarted(connection: ChatBackend): Span | undefined {
    const span = this.root ? this.tracer.startChild(`chat ${connection.model}`, this.root) : this.tracer.startRoot(`chat ${connection.model}`);
    return this.chatSpan(span, connection, 'summarizer');
  }

  summaryEnded(span: Span | undefined, model: string, outcome: { usage: { inputTokens: number; outputTokens: number } } | { error: string }): void {
    if ('usage' in outcome) this.recordUsage(span, model, outcome.usage);
    else span?.fail().set({ 'error.type': outcome.error });
    span?.end();
  }

  /** The request's end; `fallbackTo` when it could not reach its backend and the next `[[ai.fallback]]` one takes over. */
  chatEnded(span: Span | undefined, end: TurnEnd, fallbackTo?: ChatBackend): void {
    if (end.kind === 'answered') {
      this.tokens.in += end.result.usage.inputTokens;
      this.tokens.out += end.result.usage.outputTokens;
      // Requests go one at a time: this answer came from the backend last tried.
      this.answered = this.tried;
      this.recordUsage(span, this.tried?.model ?? '', end.result.usage);
    } else if (end.kind === 'failed') {
      span?.fail().set({ 'error.type': end.error.kind, 'tandem.request.attempts': end.attempts, 'tandem.fallback.to': fallbackTo && backendName(fallbackTo) });
    } else {
      span?.set({ 'tandem.request.cancelled': true });
    }
    span?.end();
  }

  /** The plan changed: its steps' spans open, take their decisions and end (telemetry/stepSpans.ts). */
  /** The plan changed at `at` (epoch ms). */
  stepsChanged(steps: readonly Readonly<TracedStep>[], at = Date.now()): void {
    this.steps.observe(steps, this.root, at);
  }

  /** A tool call that never became a step (invalid input, a full plan). */
  callRefused(call: { tool: string; toolUseId: string }): void {
    this.steps.refused(call, this.root);
  }

  /** The trace and span ids a step's card shows. */
  stepIds(stepId: string): StepTraceIds | undefined {
    return this.steps.ids(stepId);
  }

  /** The trace variables for the step's shell (empty when it has no span). */
  stepEnvironment(stepId: string): Record<string, string> {
    const span = this.steps.openSpan(stepId);
    return span ? this.tracer.environmentFor(span) : {};
  }

  private chatSpan(span: Span | undefined, connection: ChatBackend, source: UsageSource): Span | undefined {
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
