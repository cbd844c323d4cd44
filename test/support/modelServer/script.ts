/**
 * The script a test gives the model server: what each reply says and how it is delivered.
 * One format drives both wire protocols (Anthropic Messages and OpenAI chat completions).
 */

/** A piece of the assistant's answer. */
export type ReplyPart =
  /** Text; a string is streamed as several deltas (split before each word), an array as exactly those deltas. */
  | { text: string | readonly string[] }
  /** A tool call; its input is streamed as JSON split across several deltas. */
  | { toolUse: { id?: string; name: string; input: unknown } };

/** Anthropic's stop reasons; mapped to OpenAI's `finish_reason` for chat completions. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'pause_turn';

/** Error types the Anthropic API reports, in HTTP error bodies and in `error` stream events. */
export type AnthropicErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'timeout_error'
  | 'api_error'
  | 'overloaded_error';

export interface ReplyUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
}

/** A successful reply: streamed as SSE when the request has `stream: true`, else one JSON body. */
export interface StreamReply {
  parts: readonly ReplyPart[];
  /** Default: `tool_use` when a part is a tool call, else `end_turn`. */
  stopReason?: StopReason;
  usage?: ReplyUsage;
  /** Default: the `model` of the request. */
  model?: string;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Pause before each SSE event after the first. */
  delayMs?: number;
  /** Send this many SSE events, then destroy the socket (no `message_stop` / `[DONE]`). */
  cutAfterEvents?: number;
  /**
   * Send this many SSE events, then wait: until `releaseWhen` settles (then carry on), or, without
   * it, until the client closes the connection. For abort tests and "still streaming" UI states.
   */
  holdAfterEvents?: number;
  releaseWhen?: Promise<unknown>;
  /**
   * Send a `data:` line that is not valid JSON, then end the response. By default it comes after
   * all the content events (before `message_delta` / the `finish_reason` chunk).
   */
  malformed?: boolean | { afterEvents: number };
  /**
   * Send an error event (Anthropic: `event: error`; OpenAI: a `data: {"error": …}` chunk), then end
   * the response. By default it comes after all the content events.
   */
  errorEvent?: { type?: AnthropicErrorType | (string & {}); message?: string; afterEvents?: number };
}

/**
 * A plain HTTP reply, for errors: `{ status: 429, headers: { 'retry-after': '1' } }`. Without a
 * `body`, a status of 400 or more gets the protocol's real error JSON, with `errorType` (default:
 * the one the API uses for that status) and `message`.
 */
export interface HttpReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Any string is sent as is (e.g. OpenAI-style types for the chat completions route). */
  errorType?: AnthropicErrorType | (string & {});
  message?: string;
}

/** A string is shorthand for one text part; an array for a reply of those parts. */
export type ScriptedReply = string | readonly ReplyPart[] | StreamReply | HttpReply;

/** A text part with its deltas decided, or a tool call with its id and JSON chunks decided. */
export type PlannedPart =
  | { kind: 'text'; text: string; deltas: string[] }
  | { kind: 'toolUse'; id: string; name: string; input: unknown; jsonChunks: string[] };

export interface PlannedReply {
  parts: PlannedPart[];
  stopReason: StopReason;
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  model: string;
}

export function isHttpReply(reply: ScriptedReply): reply is HttpReply {
  return typeof reply === 'object' && !Array.isArray(reply) && 'status' in reply;
}

export function toStreamReply(reply: Exclude<ScriptedReply, HttpReply>): StreamReply {
  if (typeof reply === 'string') return { parts: [{ text: reply }] };
  if (isPartList(reply)) return { parts: reply };
  return reply;
}

function isPartList(reply: readonly ReplyPart[] | StreamReply): reply is readonly ReplyPart[] {
  return Array.isArray(reply);
}

/** Decides everything the wire formats need: deltas, ids, stop reason, token counts. */
export function planReply(reply: StreamReply, requestModel: string | undefined, nextToolId: () => string): PlannedReply {
  const parts = reply.parts.map((part): PlannedPart => {
    if ('text' in part) {
      const deltas = typeof part.text === 'string' ? splitText(part.text) : [...part.text];
      return { kind: 'text', text: deltas.join(''), deltas };
    }
    const { id = nextToolId(), name, input } = part.toolUse;
    return { kind: 'toolUse', id, name, input, jsonChunks: splitJson(JSON.stringify(input ?? {})) };
  });
  const deltaCount = parts.reduce((n, part) => n + (part.kind === 'text' ? part.deltas.length : part.jsonChunks.length), 0);
  return {
    parts,
    stopReason: reply.stopReason ?? (parts.some((part) => part.kind === 'toolUse') ? 'tool_use' : 'end_turn'),
    inputTokens: reply.usage?.inputTokens ?? 10,
    outputTokens: reply.usage?.outputTokens ?? Math.max(1, deltaCount),
    cacheReadInputTokens: reply.usage?.cacheReadInputTokens ?? 0,
    cacheCreationInputTokens: reply.usage?.cacheCreationInputTokens ?? 0,
    model: reply.model ?? requestModel ?? 'claude-scripted',
  };
}

/** Splits before each word that follows whitespace: "Hello **world**" → ["Hello ", "**world**"]. */
export function splitText(text: string): string[] {
  if (text === '') return [];
  return text.split(/(?<=\s)(?=\S)/);
}

/** Splits JSON text into at most four chunks at arbitrary points, as the API does mid-token. */
export function splitJson(json: string): string[] {
  const size = Math.max(1, Math.ceil(json.length / 4));
  const chunks: string[] = [];
  for (let start = 0; start < json.length; start += size) chunks.push(json.slice(start, start + size));
  return chunks;
}
