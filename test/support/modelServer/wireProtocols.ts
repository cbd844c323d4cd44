import {
  anthropicFrame,
  anthropicMessage,
  anthropicStreamEvents,
  errorBody,
  errorTypeForStatus,
} from './anthropicEvents';
import {
  DONE_FRAME,
  openaiCompletion,
  openaiErrorBody,
  openaiErrorTypeForStatus,
  openaiFrame,
  openaiStreamChunks,
} from './openaiChunks';
import type { PlannedReply } from './script';

/** What the server needs from a wire protocol to answer one request. */
export interface WireProtocol {
  /** The response header that carries the request id. */
  requestIdHeader: string;
  /** How the API's ids start, e.g. `msg_` and `toolu_`. */
  messageIdPrefix: string;
  toolIdPrefix: string;
  /** SSE frames of a streamed reply, and the index of the first frame after the content. */
  streamFrames(reply: PlannedReply, ids: ReplyIds, request: { includeUsage: boolean }): { frames: string[]; tailIndex: number };
  /** The non-streaming JSON body of a reply. */
  replyBody(reply: PlannedReply, ids: ReplyIds): unknown;
  /** The JSON body of an HTTP error response. */
  httpErrorBody(status: number, errorType: string | undefined, message: string, requestId: string): unknown;
  /** An error reported mid-stream. */
  errorFrame(errorType: string, message: string): string;
  /** A frame whose data line is cut off mid-JSON. */
  malformedFrame: string;
}

export interface ReplyIds {
  messageId: string;
  created: number;
}

/** Anthropic Messages API (`POST /v1/messages`). */
export const anthropicProtocol: WireProtocol = {
  requestIdHeader: 'request-id',
  messageIdPrefix: 'msg_',
  toolIdPrefix: 'toolu_',
  streamFrames(reply, ids) {
    const events = anthropicStreamEvents(reply, ids.messageId);
    return { frames: events.map(anthropicFrame), tailIndex: events.findIndex((event) => event.type === 'message_delta') };
  },
  replyBody: (reply, ids) => anthropicMessage(reply, ids.messageId),
  httpErrorBody: (status, errorType, message, requestId) => ({
    ...errorBody(errorType ?? errorTypeForStatus(status), message),
    request_id: requestId,
  }),
  errorFrame: (errorType, message) => anthropicFrame(errorBody(errorType, message)),
  malformedFrame: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_del\n\n',
};

/** OpenAI chat completions (`POST /v1/chat/completions`). */
export const openaiProtocol: WireProtocol = {
  requestIdHeader: 'x-request-id',
  messageIdPrefix: 'chatcmpl-',
  toolIdPrefix: 'call_',
  streamFrames(reply, ids, request) {
    const { chunks, finishIndex } = openaiStreamChunks(reply, { id: ids.messageId, model: reply.model, created: ids.created, includeUsage: request.includeUsage });
    return { frames: [...chunks.map(openaiFrame), DONE_FRAME], tailIndex: finishIndex };
  },
  replyBody: (reply, ids) => openaiCompletion(reply, { id: ids.messageId, model: reply.model, created: ids.created, includeUsage: false }),
  httpErrorBody: (status, errorType, message) => openaiErrorBody(errorType ?? openaiErrorTypeForStatus(status), message),
  errorFrame: (errorType, message) => openaiFrame(openaiErrorBody(errorType, message)),
  malformedFrame: 'data: {"id":"chatcmpl-malformed","object":"chat.completion.chunk","choices":[{"index\n\n',
};
