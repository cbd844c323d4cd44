import { sseFrame } from './sse';
import type { PlannedReply, StopReason } from './script';

/**
 * Builders for the OpenAI chat completions wire format (`POST /v1/chat/completions`), as OpenAI
 * and compatible servers send it: unnamed SSE events whose data is a `chat.completion.chunk`, and a
 * final `data: [DONE]`.
 */

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export function finishReasonFor(stopReason: StopReason): FinishReason {
  switch (stopReason) {
    case 'tool_use': return 'tool_calls';
    case 'max_tokens': return 'length';
    case 'refusal': return 'content_filter';
    default: return 'stop';
  }
}

export interface ChunkContext {
  id: string;
  model: string;
  created: number;
  /** When the request asked for `stream_options.include_usage`, every chunk has `usage: null`. */
  includeUsage: boolean;
}

type ChunkDelta = Record<string, unknown>;

export function chunk(context: ChunkContext, delta: ChunkDelta, finishReason: FinishReason | null = null) {
  return {
    id: context.id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(context.includeUsage ? { usage: null } : {}),
  };
}

/** The last chunk when usage was asked for: no choices, only the token counts. */
export function usageChunk(context: ChunkContext, promptTokens: number, completionTokens: number) {
  return {
    id: context.id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    system_fingerprint: null,
    choices: [],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

/** The first chunk of a tool call names it; later chunks for the same `index` only add argument text. */
export function toolCallStartDelta(index: number, id: string, name: string) {
  return { tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] };
}

export function toolCallArgumentsDelta(index: number, argumentsChunk: string) {
  return { tool_calls: [{ index, function: { arguments: argumentsChunk } }] };
}

/** The error body of an HTTP error response, and of an error chunk mid-stream. */
export function openaiErrorBody(type: string, message: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}

export function openaiFrame(data: unknown): string {
  return sseFrame(null, data);
}

export const DONE_FRAME = sseFrame(null, '[DONE]');

/**
 * The chunk sequence of a streamed reply (without `[DONE]`), and the index of the chunk that
 * carries `finish_reason` (where injected errors go by default).
 */
export function openaiStreamChunks(reply: PlannedReply, context: ChunkContext): { chunks: unknown[]; finishIndex: number } {
  const chunks: unknown[] = [chunk(context, { role: 'assistant', content: '', refusal: null })];
  let toolIndex = 0;
  for (const part of reply.parts) {
    if (part.kind === 'text') {
      for (const text of part.deltas) chunks.push(chunk(context, { content: text }));
    } else {
      chunks.push(chunk(context, toolCallStartDelta(toolIndex, part.id, part.name)));
      for (const json of part.jsonChunks) chunks.push(chunk(context, toolCallArgumentsDelta(toolIndex, json)));
      toolIndex += 1;
    }
  }
  const finishIndex = chunks.length;
  chunks.push(chunk(context, {}, finishReasonFor(reply.stopReason)));
  if (context.includeUsage) chunks.push(usageChunk(context, reply.inputTokens, reply.outputTokens));
  return { chunks, finishIndex };
}

/** The non-streaming response body (`chat.completion`). */
export function openaiCompletion(reply: PlannedReply, context: ChunkContext) {
  const text = reply.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('');
  const toolCalls = reply.parts.flatMap((part) =>
    part.kind === 'toolUse'
      ? [{ id: part.id, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) } }]
      : [],
  );
  return {
    id: context.id,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text === '' && toolCalls.length > 0 ? null : text,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonFor(reply.stopReason),
      },
    ],
    usage: {
      prompt_tokens: reply.inputTokens,
      completion_tokens: reply.outputTokens,
      total_tokens: reply.inputTokens + reply.outputTokens,
    },
  };
}

/** OpenAI's error `type` for an HTTP status. */
export function openaiErrorTypeForStatus(status: number): string {
  switch (status) {
    case 401: return 'invalid_request_error';
    case 403: return 'permission_error';
    case 404: return 'invalid_request_error';
    case 429: return 'rate_limit_error';
    default: return status >= 500 ? 'server_error' : 'invalid_request_error';
  }
}
