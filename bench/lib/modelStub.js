// A scripted stand-in for the Anthropic Messages API (`POST /v1/messages`, streamed), for the
// agent suite: the engine's @anthropic-ai/sdk (ANTHROPIC_BASE_URL) and the bench's own SDK
// calls talk to it over real HTTP. Every request is recorded with its arrival time on this
// process's performance.now() clock, so it can be compared with what the bench's WebSocket
// client sees. Each request takes the next reply from a queue; with none queued it gets a 400
// (not retried by the agent), so a bench bug shows up as an error, not a hang.
//
// The wire format is the API's (test/support/modelServer/anthropicEvents.ts builds the same
// events for the TypeScript tests): message_start, ping, per content block
// content_block_start / _delta (text_delta or input_json_delta) / _stop, message_delta with
// the stop reason, message_stop; each as `event: <type>` + `data: <json>`.
import { createServer } from 'node:http';

/**
 * A reply is a list of parts: `{ text }` or `{ tool: name, input }`. `text(s)` and
 * `toolUse(name, input)` build the common one-part replies.
 */
export const text = (s) => [{ text: s }];
export const toolUse = (name, input) => [{ tool: name, input }];

export async function startModelStub() {
  const queue = [];
  const requests = [];
  let waiters = [];
  let nextId = 1;

  const server = createServer((req, res) => {
    // Headers are in: the request has arrived; the body (the tool results) follows.
    const arrivedAt = performance.now();
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body;
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = undefined;
      }
      const request = { index: requests.length + 1, method: req.method, path: req.url, arrivedAt, receivedAt: performance.now(), rawBody, body };
      requests.push(request);
      waiters = waiters.filter((w) => (requests.length >= w.n ? (w.resolve(requests[w.n - 1]), false) : true));
      answer(request, res);
    });
  });

  function answer(request, res) {
    if (request.method !== 'POST' || !request.path.startsWith('/v1/messages') || !request.body) {
      return sendError(res, 404, 'not_found_error', `bench model stub: no route for ${request.method} ${request.path}`);
    }
    if (request.body.stream !== true) {
      return sendError(res, 400, 'invalid_request_error', 'bench model stub: only streamed requests are scripted');
    }
    const parts = queue.shift();
    if (!parts) return sendError(res, 400, 'invalid_request_error', `bench model stub: no scripted reply for request ${request.index}`);
    const events = streamEvents(parts, request, nextId++);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_bench_${request.index}` });
    for (const event of events) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    res.end();
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${server.address().port}`;

  return {
    /** The base URL for the SDK (`baseURL`, ANTHROPIC_BASE_URL). */
    url,
    /** Every request so far: { index (1-based), method, path, arrivedAt, receivedAt, rawBody, body }. */
    requests,
    /** Queues replies; each request takes the next one. */
    script(...replies) {
      queue.push(...replies);
    },
    /** Drops the replies not yet taken (after a measurement that failed halfway). */
    clearReplies() {
      queue.length = 0;
    },
    /** Resolves with the n-th request (1-based) once its body has been read. */
    waitForRequest(n, ms = 15_000) {
      if (requests.length >= n) return Promise.resolve(requests[n - 1]);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the model stub got ${requests.length} requests, not ${n}, within ${ms} ms`)), ms);
        waiters.push({ n, resolve: (r) => (clearTimeout(timer), resolve(r)) });
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function sendError(res, status, type, message) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ type: 'error', error: { type, message } }));
}

/** The events of one streamed reply, in the API's order. */
function streamEvents(parts, request, id) {
  const usage = { input_tokens: Math.ceil(request.rawBody.length / 4), cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 };
  const events = [
    {
      type: 'message_start',
      message: { id: `msg_bench_${id}`, type: 'message', role: 'assistant', model: request.body.model, content: [], stop_reason: null, stop_sequence: null, usage },
    },
    // The API pings early in every stream; clients skip it.
    { type: 'ping' },
  ];
  let outputChars = 0;
  parts.forEach((part, index) => {
    if (part.text !== undefined) {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      // Two deltas, so the client assembles text as it does from the real API.
      const cut = Math.ceil(part.text.length / 2);
      for (const piece of [part.text.slice(0, cut), part.text.slice(cut)].filter(Boolean)) {
        events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      }
      outputChars += part.text.length;
    } else {
      const json = JSON.stringify(part.input ?? {});
      events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_bench_${id}_${index}`, name: part.tool, input: {} } });
      // The API's first input_json_delta is usually empty; the rest are fragments cut anywhere.
      const cut = Math.ceil(json.length / 2);
      for (const piece of ['', json.slice(0, cut), json.slice(cut)]) {
        events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
      }
      outputChars += json.length;
    }
    events.push({ type: 'content_block_stop', index });
  });
  const stopReason = parts.some((part) => part.tool !== undefined) ? 'tool_use' : 'end_turn';
  events.push({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: Math.max(1, Math.ceil(outputChars / 4)) } });
  events.push({ type: 'message_stop' });
  return events;
}
