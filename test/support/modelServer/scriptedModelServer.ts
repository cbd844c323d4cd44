import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messageSequenceProblem } from './messageSequence';
import { isHttpReply, planReply, toStreamReply, type HttpReply, type ScriptedReply, type StreamReply } from './script';
import { anthropicProtocol, openaiProtocol, type WireProtocol } from './wireProtocols';
import { shellTimeout } from '../shellTimeout';

/**
 * A real HTTP server on 127.0.0.1 that answers model requests from a per-test script, speaking
 * the Anthropic Messages API (`POST /v1/messages`) and OpenAI chat completions
 * (`POST /v1/chat/completions`), streamed or not. Point a real SDK at `url`.
 *
 * Plain Node on purpose: Vitest tests and Playwright e2e tests both use it.
 */
export interface ScriptedModelServer {
  /** The base URL for the Anthropic SDK (`baseURL`); the OpenAI SDK wants `${url}/v1`. */
  readonly url: string;
  /** Every request received so far, in order (`index` is 1-based). */
  readonly requests: readonly RecordedRequest[];
  /** Scripted replies not yet consumed. */
  readonly pendingReplies: number;
  /** Queues replies; each model request consumes the next one. */
  script(...replies: ScriptedReply[]): void;
  /**
   * Checks each Anthropic request's message sequence as the API does (messageSequence.ts) and
   * answers an invalid one with the API's 400 `invalid_request_error` (it consumes no reply).
   */
  checkMessageSequence(on: boolean): void;
  /** Answers requests that find the queue empty; `null` removes the responder. */
  respond(responder: Responder | null): void;
  /**
   * The model ids `GET /v1/models` lists (in a body both the Anthropic and the OpenAI SDK
   * read); `null` (the default) answers 404, as an endpoint without the route does. These
   * requests are not model requests: `requests` does not record them, `modelListRequests` counts them.
   */
  listModels(ids: readonly string[] | null): void;
  readonly modelListRequests: number;
  /** Resolves with the n-th request (1-based) once it has arrived. */
  waitForRequest(n: number, timeoutMs?: number): Promise<RecordedRequest>;
  /** Forgets queued replies, the responder and recorded requests (indices restart at 1). */
  reset(): void;
  /** Closes every connection (held streams included) and stops listening. */
  close(): Promise<void>;
}

export type Responder = (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;

/** The request fields tests look at most; everything else the client sent is there too. */
export interface ModelRequestBody {
  model?: string;
  stream?: boolean;
  max_tokens?: number;
  system?: unknown;
  messages?: { role: string; content: unknown }[];
  tools?: { name?: string; [key: string]: unknown }[];
  [key: string]: unknown;
}

export interface RecordedRequest {
  /** 1-based position among all requests since start (or the last `reset()`). */
  readonly index: number;
  readonly method: string;
  /** The path without the query string, e.g. `/v1/messages`. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: string;
  /** The parsed JSON body; undefined when the body was empty or not JSON. */
  readonly body: ModelRequestBody | undefined;
  /** `Date.now()` when the whole request had been read. */
  readonly receivedAt: number;
  /** True once the client closed the connection before the response was complete. */
  readonly closedByClient: boolean;
  /** Resolves when the exchange is over: response complete, client gone, or cut by the script. */
  readonly closed: Promise<void>;
}

const NO_REPLY_STATUS = 500;

export async function startScriptedModelServer(): Promise<ScriptedModelServer> {
  const queue: ScriptedReply[] = [];
  let responder: Responder | null = null;
  let requests: RecordedRequest[] = [];
  let waiters: { n: number; resolve: (request: RecordedRequest) => void; reject: (error: Error) => void }[] = [];
  let idCounter = 0;
  const nextId = () => ++idCounter;
  let closing = false;
  let listedModels: readonly string[] | null = null;
  let modelListRequests = 0;
  let checkSequence = false;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug here must show up in the test as a failed request, not as a hang.
      if (!res.headersSent) sendJson(res, 500, {}, { type: 'error', error: { type: 'api_error', message: `scripted model server crashed: ${String(error)}` } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    if (req.method === 'GET' && new URL(req.url ?? '/', 'http://127.0.0.1').pathname === '/v1/models') {
      modelListRequests++;
      if (!listedModels) return sendHttpReply(res, anthropicProtocol, { status: 404, message: 'scripted model server: no model list' });
      const data = listedModels.map((id) => ({ id, type: 'model', object: 'model', display_name: id, created_at: '2026-01-01T00:00:00Z', created: 0, owned_by: 'scripted' }));
      return sendJson(res, 200, {}, { object: 'list', data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
    }
    const exchange = record(req, res, rawBody);
    const { request } = exchange;
    const route = `${request.method} ${request.path}`;

    if (route === 'POST /v1/messages/count_tokens') {
      return sendJson(res, 200, {}, { input_tokens: Math.max(1, Math.ceil(rawBody.length / 4)) });
    }
    const protocol = route === 'POST /v1/messages' ? anthropicProtocol : route === 'POST /v1/chat/completions' ? openaiProtocol : null;
    if (!protocol) {
      return sendHttpReply(res, anthropicProtocol, { status: 404, message: `scripted model server: no route for ${route}` });
    }
    if (request.body === undefined) {
      return sendHttpReply(res, protocol, { status: 400, message: 'scripted model server: the request body is not JSON' });
    }
    const problem = checkSequence && protocol === anthropicProtocol ? messageSequenceProblem(request.body.messages) : undefined;
    if (problem) return sendHttpReply(res, protocol, { status: 400, errorType: 'invalid_request_error', message: problem });

    const reply = await nextReply(request);
    if (isHttpReply(reply)) return sendHttpReply(res, protocol, reply);

    const streamReply = toStreamReply(reply);
    const planned = planReply(streamReply, request.body.model, () => `${protocol.toolIdPrefix}scripted_${nextId()}`);
    const ids = { messageId: `${protocol.messageIdPrefix}scripted_${nextId()}`, created: Math.floor(Date.now() / 1000) };
    const headers = { [protocol.requestIdHeader]: `req_scripted_${nextId()}`, ...streamReply.headers };
    if (request.body.stream !== true) return sendJson(res, 200, headers, protocol.replyBody(planned, ids));

    const includeUsage = (request.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const { frames, tailIndex } = protocol.streamFrames(planned, ids, { includeUsage });
    await writeStream(exchange, headers, withInjectedError(frames, tailIndex, streamReply, protocol), streamReply);
  }

  function record(req: IncomingMessage, res: ServerResponse, rawBody: string): Exchange {
    const request: { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] } = {
      index: requests.length + 1,
      method: req.method ?? 'GET',
      path: new URL(req.url ?? '/', 'http://127.0.0.1').pathname,
      headers: req.headers,
      rawBody,
      body: parseJson(rawBody),
      receivedAt: Date.now(),
      closedByClient: false,
      closed: new Promise<void>((resolve) => {
        res.once('close', () => {
          request.closedByClient = !res.writableFinished && !exchange.cutByServer && !closing;
          resolve();
        });
      }),
    };
    const exchange: Exchange = { res, request, cutByServer: false };
    requests.push(request);
    waiters = waiters.filter((waiter) => {
      if (waiter.n !== request.index) return true;
      waiter.resolve(request);
      return false;
    });
    return exchange;
  }

  async function nextReply(request: RecordedRequest): Promise<ScriptedReply> {
    const queued = queue.shift();
    if (queued !== undefined) return queued;
    const noReply = `scripted model server: no reply scripted for request #${request.index} (${request.method} ${request.path})`;
    if (!responder) return { status: NO_REPLY_STATUS, errorType: 'api_error', message: noReply };
    try {
      return await responder(request);
    } catch (error) {
      return { status: NO_REPLY_STATUS, errorType: 'api_error', message: `scripted model server: the responder threw for request #${request.index}: ${String(error)}` };
    }
  }

  function sendHttpReply(res: ServerResponse, protocol: WireProtocol, reply: HttpReply): void {
    const requestId = `req_scripted_${nextId()}`;
    const body = reply.body ?? (reply.status >= 400 ? protocol.httpErrorBody(reply.status, reply.errorType, reply.message ?? `scripted ${reply.status} error`, requestId) : {});
    sendJson(res, reply.status, { [protocol.requestIdHeader]: requestId, ...reply.headers }, body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    get pendingReplies() {
      return queue.length;
    },
    script(...replies) {
      queue.push(...replies);
    },
    respond(next) {
      responder = next;
    },
    checkMessageSequence(on) {
      checkSequence = on;
    },
    listModels(ids) {
      listedModels = ids;
    },
    get modelListRequests() {
      return modelListRequests;
    },
    waitForRequest(n, baseMs = 10_000) {
      const timeoutMs = shellTimeout(baseMs);
      const arrived = requests[n - 1];
      if (arrived) return Promise.resolve(arrived);
      return new Promise<RecordedRequest>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((waiter) => waiter.resolve !== done);
          reject(new Error(`scripted model server: request #${n} did not arrive within ${timeoutMs} ms (${requests.length} received)`));
        }, timeoutMs);
        const done = (request: RecordedRequest) => {
          clearTimeout(timer);
          resolve(request);
        };
        const fail = (error: Error) => {
          clearTimeout(timer);
          reject(error);
        };
        waiters.push({ n, resolve: done, reject: fail });
      });
    },
    reset() {
      queue.length = 0;
      responder = null;
      listedModels = null;
      modelListRequests = 0;
      checkSequence = false;
      requests = [];
      rejectWaiters('scripted model server: reset() before the request arrived');
    },
    async close() {
      closing = true;
      rejectWaiters('scripted model server: closed before the request arrived');
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };

  function rejectWaiters(message: string): void {
    const pending = waiters;
    waiters = [];
    for (const waiter of pending) waiter.reject(new Error(`${message} (#${waiter.n})`));
  }
}

interface Exchange {
  res: ServerResponse;
  request: RecordedRequest;
  /** Set when the script cuts the connection, so the close is not blamed on the client. */
  cutByServer: boolean;
}

/** Replaces the frames from the injection point on with a malformed frame or an error event. */
function withInjectedError(frames: string[], tailIndex: number, reply: StreamReply, protocol: WireProtocol): string[] {
  if (reply.errorEvent) {
    const { type = 'overloaded_error', message = 'Overloaded', afterEvents = tailIndex } = reply.errorEvent;
    return [...frames.slice(0, afterEvents), protocol.errorFrame(type, message)];
  }
  if (reply.malformed) {
    const afterEvents = typeof reply.malformed === 'object' ? reply.malformed.afterEvents : tailIndex;
    return [...frames.slice(0, afterEvents), protocol.malformedFrame];
  }
  return frames;
}

async function writeStream(exchange: Exchange, headers: Record<string, string>, frames: string[], reply: StreamReply): Promise<void> {
  const { res, request } = exchange;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...headers });
  res.flushHeaders();
  let connectionGone = false;
  void request.closed.then(() => (connectionGone = true));

  for (let i = 0; i <= frames.length; i++) {
    if (i === reply.cutAfterEvents) {
      exchange.cutByServer = true;
      res.destroy();
      return;
    }
    if (i === reply.holdAfterEvents) {
      const released = reply.releaseWhen?.then(noop, noop) ?? new Promise<void>(noop);
      await Promise.race([released, request.closed]);
    }
    const frame = frames[i];
    if (frame === undefined) break;
    if (i > 0 && reply.delayMs) await sleep(reply.delayMs);
    if (connectionGone) return;
    // Waiting for each write to reach the socket keeps events in separate TCP sends and makes a
    // later cut happen after the data, as a dropped connection would.
    await new Promise<void>((resolve) => res.write(frame, () => resolve()));
  }
  if (!connectionGone) res.end();
}

function sendJson(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): ModelRequestBody | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as ModelRequestBody) : undefined;
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function noop(): void {}
