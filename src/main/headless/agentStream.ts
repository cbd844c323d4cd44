import { z } from 'zod';

/**
 * The event stream of `tandem agent` (docs/agent-protocol.md): one JSON object per line on
 * stdout (NDJSON), and the messages a program may send back on stdin with
 * `--approve=stdio --input-format json`. The JSON Schema in docs/agent-protocol.schema.json is
 * generated from these declarations (scripts/agentProtocolSchema.ts) and tests validate every
 * line a run prints against it. Field names are snake_case; the `result` line and `usage`
 * follow Claude Code's `stream-json` result line where they mean the same thing.
 */

/** Bumped when a field changes meaning or goes away. New fields and event types do not bump it: readers ignore what they do not know (the schema file of each release lists exactly what it prints). */
export const AGENT_STREAM_VERSION = 1;

const level = z.enum(['green', 'yellow', 'red']);
const stepKind = z.enum(['command', 'edit', 'screenshot', 'screen-text', 'windows', 'listen', 'ui']);
const backendRef = z.strictObject({ backend: z.enum(['anthropic', 'openai-compatible']), model: z.string() });
const stepRef = { plan_id: z.string(), step_id: z.string(), index: z.number().int().positive() };
const attributes = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
const spanId = z.string().regex(/^[0-9a-f]{16}$/);

/** A finished span as traces.jsonl has it (docs/telemetry.md); the seed's fields (backend, actions, tokens_in, result …) vary by span, so more may come. */
export const StreamSpan = z.looseObject({
  trace_id: z.string().regex(/^[0-9a-f]{32}$/),
  span_id: spanId,
  parent_span: spanId.nullable(),
  name: z.string(),
  pid: z.number().int(),
  host: z.string(),
  start: z.string(),
  end: z.string(),
  duration_ms: z.number().nonnegative(),
  status: z.enum(['ok', 'error']),
  attributes,
  events: z.array(z.strictObject({ name: z.string(), time: z.string(), attributes: attributes.optional() })).optional(),
});

export const ApprovalMode = z.enum(['ask', 'policy', 'stdio', 'deny']);
export type ApprovalMode = z.infer<typeof ApprovalMode>;

export const StreamUsage = z.strictObject({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  /** Tokens of the last request's context (standing context and kept history), estimated. */
  context_tokens: z.number().int().nonnegative(),
});

const events = [
  z.strictObject({
    type: z.literal('session'),
    version: z.literal(AGENT_STREAM_VERSION),
    session_id: z.string(),
    trace_id: z.string(),
    tandem_version: z.string(),
    model: z.string(),
    backend: z.enum(['anthropic', 'openai-compatible']),
    cwd: z.string(),
    shell: z.string(),
    approve: ApprovalMode,
    auto: z.boolean(),
  }),
  /** An instruction the run took (from -c, a file, stdin or an `instruction` message). */
  z.strictObject({ type: z.literal('instruction'), text: z.string(), piped_bytes: z.number().int().nonnegative().optional() }),
  /** Streaming text of an assistant message; a `message` with the whole text follows. */
  z.strictObject({ type: z.literal('delta'), message_id: z.string(), text: z.string() }),
  z.strictObject({ type: z.literal('message'), message_id: z.string(), text: z.string(), interrupted: z.string().optional() }),
  z.strictObject({
    type: z.literal('plan'),
    plan_id: z.string(),
    steps: z.array(z.strictObject({ step_id: z.string(), index: z.number().int().positive(), kind: stepKind, command: z.string(), purpose: z.string() })),
  }),
  z.strictObject({
    type: z.literal('step'),
    phase: z.literal('proposed'),
    ...stepRef,
    kind: stepKind,
    command: z.string(),
    /** The file an edit step changes. */
    path: z.string().optional(),
    purpose: z.string(),
    cwd: z.string().optional(),
    level: level.optional(),
    reasons: z.array(z.string()),
    /** What the gate decided: allow (runs), ask (someone must decide), deny (will not run). */
    decision: z.enum(['allow', 'ask', 'deny']),
    rule: z.string(),
    /** RED and no policy names it: never runs in a headless run. */
    blocked: z.boolean(),
  }),
  z.strictObject({
    type: z.literal('approval_request'),
    /** Echoed by the `approval` message that answers it. */
    id: z.string(),
    ...stepRef,
    kind: stepKind,
    command: z.string(),
    path: z.string().optional(),
    purpose: z.string(),
    level: level.optional(),
    reasons: z.array(z.string()),
    rule: z.string(),
    /** allow_session is offered (never for RED, nor for an edit outside the working directory). */
    session_grant: z.boolean(),
    /** The step runs on this other host: the pane's shell was taken there by `ssh` (docs/ssh.md). */
    host: z.string().optional(),
    diff: z.string().optional(),
    /** A child agent's step (spawn_agent) that asks here: answer it like the run's own. */
    agent: z.strictObject({ depth: z.number().int().positive(), pid: z.number().int().positive().optional() }).optional(),
  }),
  z.strictObject({
    type: z.literal('step'),
    phase: z.literal('decided'),
    ...stepRef,
    command: z.string(),
    verdict: z.enum(['allowed', 'denied', 'skipped']),
    /** you: a person's answer; headless: the run's approval mode; the rest: the approval gate (policy, hook, grant, built-in rules). */
    decided_by: z.enum(['you', 'allow-all', 'auto', 'headless', 'grant', 'policy', 'hook', 'builtin']),
    rule: z.string(),
    detail: z.string().optional(),
  }),
  z.strictObject({ type: z.literal('step'), phase: z.literal('started'), ...stepRef, command: z.string(), cwd: z.string().optional() }),
  /** What a running command printed, without escape sequences, secrets scrubbed. */
  z.strictObject({ type: z.literal('output'), ...stepRef, text: z.string() }),
  z.strictObject({
    type: z.literal('step'),
    phase: z.literal('finished'),
    ...stepRef,
    command: z.string(),
    status: z.enum(['done', 'failed', 'denied', 'skipped']),
    exit_code: z.number().int().optional(),
    duration_ms: z.number().nonnegative().optional(),
    cwd: z.string().optional(),
    detail: z.string().optional(),
    /** Output left out of the stream (it went on longer than the stream carries). */
    omitted_bytes: z.number().int().nonnegative().optional(),
  }),
  z.strictObject({ type: z.literal('file_change'), ...stepRef, path: z.string(), creates: z.boolean(), added: z.number().int(), removed: z.number().int(), diff: z.string() }),
  /** `cost_unknown`: a request was to a model without a price, so its cost is not in `total_cost_usd`. */
  z.strictObject({ type: z.literal('usage'), usage: StreamUsage, total_cost_usd: z.number().nonnegative().optional(), cost_unknown: z.literal(true).optional() }),
  z.strictObject({ type: z.literal('retry'), reason: z.string(), attempt: z.number().int(), attempts: z.number().int(), seconds_left: z.number().nonnegative() }),
  /** The backend could not be reached (no connection, DNS, TLS, 5xx after its retries): the request went to the next `[[ai.fallback]]` backend. */
  z.strictObject({ type: z.literal('fallback'), from: backendRef, to: backendRef, reason: z.string() }),
  /** `code: daily_budget`: the request was refused before it was sent, today's spend reached `[ai] daily_budget_usd`. */
  z.strictObject({ type: z.literal('error'), message: z.string(), retryable: z.boolean().optional(), code: z.literal('daily_budget').optional() }),
  /** A finished span, with `TANDEM_TRACE_SINK=stdout` (docs/telemetry.md): a parent that reads the stream aggregates them. Never after `result`. */
  z.strictObject({ type: z.literal('span'), span: StreamSpan }),
  /** Something the shell or Tandem said about the run's shell (a missing shell, a broken config). */
  z.strictObject({ type: z.literal('notice'), level: z.enum(['info', 'warning', 'error']), message: z.string() }),
  z.strictObject({
    type: z.literal('result'),
    subtype: z.enum(['success', 'error_step', 'error_refused', 'error_model', 'error_timeout', 'error_interrupted', 'error_usage', 'error_during_execution', 'error_budget']),
    is_error: z.boolean(),
    exit_code: z.number().int(),
    duration_ms: z.number().nonnegative(),
    num_turns: z.number().int().nonnegative(),
    usage: StreamUsage,
    total_cost_usd: z.number().nonnegative().optional(),
    cost_unknown: z.literal(true).optional(),
    session_id: z.string(),
    /** The final answer's text (empty when there was none). */
    result: z.string(),
    /** Why the run ended as it did, in a sentence. */
    reason: z.string().optional(),
  }),
] as const;

export const AgentStreamEventSchema = z.union(events);
export type AgentStreamEvent = z.infer<typeof AgentStreamEventSchema>;
export type StreamEventOf<T extends AgentStreamEvent['type']> = Extract<AgentStreamEvent, { type: T }>;

/** What a program may write to stdin, one per line (`--input-format json`). */
export const AgentInputSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('approval'),
    id: z.string(),
    decision: z.enum(['allow', 'allow_session', 'deny']),
    /** Told to the model with a denial, or as a note with an approval. */
    note: z.string().max(2_000).optional(),
    /** The command to run instead (judged again by the gate). */
    command: z.string().max(20_000).optional(),
  }),
  z.strictObject({ type: z.literal('instruction'), text: z.string().min(1).max(100_000) }),
  z.strictObject({ type: z.literal('interrupt') }),
]);
export type AgentInput = z.infer<typeof AgentInputSchema>;

/** The exit statuses of `tandem agent` (docs/agent-protocol.md). */
export const AGENT_EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  refused: 3,
  model: 4,
  /** Today's spend reached `[ai] daily_budget_usd`: no model was asked (the same status as no model answering). */
  budget: 4,
  timeout: 124,
  interrupted: 130,
} as const;
