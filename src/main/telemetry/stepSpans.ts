import type { PlanStepView, StepStatus } from '../../shared/agent';
import { scrubSecrets } from '../safety/secretScrubber';
import type { Span } from './span';
import type { Tracer } from './tracer';

/** A plan step as its span needs it: the view, and the tool call it answers. */
export type TracedStep = PlanStepView & { tool: string; toolUseId: string };

/** What a step did, for the root's seed `actions` list. */
export interface StepAction {
  type: string;
  command?: string;
  exit?: number;
  duration_ms?: number;
  approval?: string;
}

/** A step's place in the trace: what its card shows. */
export interface StepTraceIds {
  traceId: string;
  spanId: string;
}

interface StepEntry extends StepTraceIds {
  /** Open until the step reached an end (ran, or was denied, skipped, refused). */
  span?: Span;
  step: Readonly<TracedStep>;
  /** When the gate put it to a person. */
  askedAt?: number;
  decided: boolean;
}

/** Ids of ended steps are kept for their cards (a plan view is redrawn after an Undo) up to this many. */
const KEPT_STEPS = 2_000;
const ENDED: ReadonlySet<StepStatus> = new Set(['done', 'failed', 'denied', 'skipped']);
/** Deciders that are a person (or a program answering for one over stdio): their wait is recorded. */
const PERSONAL = new Set(['you', 'allow-all']);

/**
 * The `execute_tool {tool}` span of every plan step, from the moment it is proposed: one
 * that ran, and one that never did (denied, skipped, refused by policy or an auto run's step
 * limit, stopped with its plan), so the trace says what the agent wanted to do. An approval
 * is an `approval` event at the time of the decision; one that waited on a person adds
 * `tandem.approval.wait_ms`.
 */
export class StepSpans {
  private readonly entries = new Map<string, StepEntry>();

  constructor(
    private readonly tracer: Tracer,
    private readonly conversationId: () => string,
    private readonly actionDone: (action: StepAction) => void,
  ) {}

  /** The plan changed at `at` (epoch ms): each step's span is opened, given its decision, or ended. */
  observe(steps: readonly Readonly<TracedStep>[], root: Span | undefined, at = Date.now()): void {
    for (const step of steps) this.observeStep(step, root, at);
  }

  ids(stepId: string): StepTraceIds | undefined {
    const entry = this.entries.get(stepId);
    return entry && { traceId: entry.traceId, spanId: entry.spanId };
  }

  openSpan(stepId: string): Span | undefined {
    return this.entries.get(stepId)?.span;
  }

  /** The run is over: steps still open (their response was dropped) end as they are. */
  endOpen(): void {
    for (const entry of this.entries.values()) if (entry.span) this.end(entry);
  }

  /** A tool call that never became a step (invalid input, a full plan): a span that says so. */
  refused(call: { tool: string; toolUseId: string }, root: Span | undefined): void {
    this.attributes(this.tracer.startChild(`execute_tool ${call.tool}`, root), call)
      ?.set({ 'tandem.step.status': 'refused' })
      .field('approval', 'builtin')
      .end();
  }

  private observeStep(step: Readonly<TracedStep>, root: Span | undefined, at: number): void {
    let entry = this.entries.get(step.id);
    if (!entry) {
      const span = this.attributes(this.tracer.startChild(`execute_tool ${step.tool}`, root), step);
      if (!span) return;
      entry = { traceId: span.traceId, spanId: span.spanId, span, step, decided: false };
      this.entries.set(step.id, entry);
      this.forgetOld();
    }
    if (!entry.span) return;
    entry.step = step;
    if (step.approval?.decision === 'ask' && entry.askedAt === undefined) entry.askedAt = at;
    if (step.decider && !entry.decided) {
      entry.decided = true;
      const waited = entry.askedAt !== undefined && PERSONAL.has(step.decider.by) ? at - entry.askedAt : undefined;
      entry.span
        .set({ 'tandem.approval.wait_ms': waited })
        .event('approval', { 'tandem.approval.verdict': step.decider.verdict, 'tandem.approval.by': step.decider.by, 'tandem.approval.rule': step.decider.rule, 'tandem.approval.wait_ms': waited }, at);
    }
    if (ENDED.has(step.status)) this.end(entry, at);
  }

  private forgetOld(): void {
    if (this.entries.size <= KEPT_STEPS) return;
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= KEPT_STEPS) return;
      if (!entry.span) this.entries.delete(id);
    }
  }

  private attributes(span: Span | undefined, call: { tool: string; toolUseId: string }): Span | undefined {
    return span?.set({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': call.tool,
      'gen_ai.tool.call.id': call.toolUseId,
      'gen_ai.tool.type': 'function',
      'gen_ai.conversation.id': this.conversationId(),
    });
  }

  private end(entry: StepEntry, at = Date.now()): void {
    const { span, step } = entry;
    if (!span) return;
    entry.span = undefined;
    const ran = step.status === 'done' || step.status === 'failed';
    const type = !step.kind || step.kind === 'command' ? 'shell' : step.kind;
    const command = this.tracer.includeContent ? scrubSecrets(step.command).text : undefined;
    if (ran) this.actionDone({ type, ...(command !== undefined ? { command } : {}), exit: step.exitCode, duration_ms: step.durationMs, approval: step.decider?.by });
    if (step.status === 'failed') span.fail();
    span
      .set({
        'tandem.step.kind': step.kind ?? 'command',
        'tandem.step.index': step.index,
        'tandem.step.level': step.risk?.level,
        'tandem.step.status': step.status,
        'tandem.step.run_ms': ran ? step.durationMs : undefined,
        'tandem.step.beyond_limit': step.beyondLimit || undefined,
        'tandem.approval.decision': step.approval?.decision,
        'tandem.approval.by': step.decider?.by,
        'process.exit.code': step.exitCode,
        'tandem.step.detail': step.detail && this.tracer.includeContent ? step.detail : undefined,
      })
      .field('type', type)
      .field('command', command)
      .field('exit', step.exitCode)
      .field('approval', step.decider?.by)
      .end(at);
  }
}
