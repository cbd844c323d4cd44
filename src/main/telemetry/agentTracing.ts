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

  constructor(
    private readonly tracer: Tracer,
    private readonly conversationId: () => string,
  ) {
    this.steps = new StepSpans(tracer, conversationId, (action) => this.actions.push(action));
  }

  /** The user's message that the next loop answers. */
  instruction(text: string): void {
    this.pendingInstruction = text;
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
    root.set({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'tandem', 'gen_ai.conversation.id': this.conversationId(), 'tandem.trace.depth': this.tracer.depth });
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
    return this.tracer.startChild(`chat ${connection.model}`, this.root)?.set({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': PROVIDER_NAMES[connection.backendKind] ?? connection.backendKind,
      'gen_ai.request.model': connection.model,
      'gen_ai.conversation.id': this.conversationId(),
      'tandem.fallback.from': fallbackFrom && backendName(fallbackFrom),
    });
  }

  /** The request's end; `fallbackTo` when it could not reach its backend and the next `[[ai.fallback]]` one takes over. */
  chatEnded(span: Span | undefined, end: TurnEnd, fallbackTo?: ChatBackend): void {
    if (end.kind === 'answered') {
      const { inputTokens, outputTokens } = end.result.usage;
      this.tokens.in += inputTokens;
      this.tokens.out += outputTokens;
      // Requests go one at a time: this answer came from the backend last tried.
      this.answered = this.tried;
      span?.set({ 'gen_ai.usage.input_tokens': inputTokens, 'gen_ai.usage.output_tokens': outputTokens }).field('tokens_in', inputTokens).field('tokens_out', outputTokens);
    } else if (end.kind === 'failed') {
      span?.fail().set({ 'error.type': end.error.kind, 'tandem.request.attempts': end.attempts, 'tandem.fallback.to': fallbackTo && backendName(fallbackTo) });
    } else {
      span?.set({ 'tandem.request.cancelled': true });
    }
    span?.end();
  }

  /** The plan changed: its steps' spans open, take their decisions and end (telemetry/stepSpans.ts). */
  stepsChanged(steps: readonly Readonly<TracedStep>[]): void {
    this.steps.observe(steps, this.root);
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
}
