import { sseFrame } from './sse';
import type { AnthropicErrorType, PlannedPart, PlannedReply, StopReason } from './script';

/**
 * Builders for the Anthropic Messages API wire format, shaped as the API sends them (see the
 * streaming docs, and `MessageStream#accumulateMessage` in @anthropic-ai/sdk, which consumes them).
 * Each SSE event is named after its `type` and carries the same JSON object as its data.
 */

export interface StartUsage {
  inputTokens: number;
  cacheCreationInputTokens?: number;
  cacheReadInputTokens?: number;
}

/** `message_start`: the message with no content yet; `output_tokens` is the API's early count. */
export function messageStart(id: string, model: string, usage: StartUsage) {
  return {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.inputTokens,
        cache_creation_input_tokens: usage.cacheCreationInputTokens ?? 0,
        cache_read_input_tokens: usage.cacheReadInputTokens ?? 0,
        output_tokens: 1,
        service_tier: 'standard',
      },
    },
  } as const;
}

export function textBlockStart(index: number) {
  return { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } as const;
}

/** A tool call starts with an empty input; the input arrives as `input_json_delta` text. */
export function toolUseBlockStart(index: number, id: string, name: string) {
  return { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } } as const;
}

export function textDelta(index: number, text: string) {
  return { type: 'content_block_delta', index, delta: { type: 'text_delta', text } } as const;
}

/** `partial_json` is a fragment of the JSON text, cut anywhere (mid-string, mid-number). */
export function inputJsonDelta(index: number, partialJson: string) {
  return { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partialJson } } as const;
}

export function contentBlockStop(index: number) {
  return { type: 'content_block_stop', index } as const;
}

/** `message_delta`: the stop reason and the final (cumulative) output token count. */
export function messageDelta(stopReason: StopReason, outputTokens: number) {
  return {
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: outputTokens },
  } as const;
}

export function messageStop() {
  return { type: 'message_stop' } as const;
}

export function ping() {
  return { type: 'ping' } as const;
}

/** The body of an `error` stream event, and of an HTTP error response (which adds `request_id`). */
export function errorBody(type: AnthropicErrorType | (string & {}), message: string) {
  return { type: 'error', error: { type, message } } as const;
}

/** Frames an event as the API does: `event: <type>` then `data: <json>`. */
export function anthropicFrame(event: { type: string }): string {
  return sseFrame(event.type, event);
}

/** The error type the API uses for an HTTP status. */
export function errorTypeForStatus(status: number): AnthropicErrorType {
  switch (status) {
    case 400: return 'invalid_request_error';
    case 401: return 'authentication_error';
    case 402: return 'billing_error';
    case 403: return 'permission_error';
    case 404: return 'not_found_error';
    case 413: return 'request_too_large';
    case 429: return 'rate_limit_error';
    case 504: return 'timeout_error';
    case 529: return 'overloaded_error';
    default: return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/** The whole event sequence of a streamed reply, in the API's order. */
export function anthropicStreamEvents(reply: PlannedReply, messageId: string): { type: string }[] {
  const events: { type: string }[] = [
    messageStart(messageId, reply.model, reply),
    // The API sends a ping early in every stream; clients must skip it.
    ping(),
  ];
  reply.parts.forEach((part, index) => {
    if (part.kind === 'text') {
      events.push(textBlockStart(index), ...part.deltas.map((text) => textDelta(index, text)));
    } else {
      // The API's first input_json_delta is usually empty.
      events.push(toolUseBlockStart(index, part.id, part.name), ...['', ...part.jsonChunks].map((json) => inputJsonDelta(index, json)));
    }
    events.push(contentBlockStop(index));
  });
  events.push(messageDelta(reply.stopReason, reply.outputTokens), messageStop());
  return events;
}

/** The non-streaming response body: the message as `finalMessage()` would assemble it. */
export function anthropicMessage(reply: PlannedReply, messageId: string) {
  return {
    id: messageId,
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content: reply.parts.map(contentBlock),
    stop_reason: reply.stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: reply.inputTokens,
      cache_creation_input_tokens: reply.cacheCreationInputTokens,
      cache_read_input_tokens: reply.cacheReadInputTokens,
      output_tokens: reply.outputTokens,
      service_tier: 'standard',
    },
  };
}

function contentBlock(part: PlannedPart) {
  return part.kind === 'text'
    ? { type: 'text', text: part.text }
    : { type: 'tool_use', id: part.id, name: part.name, input: part.input ?? {} };
}
