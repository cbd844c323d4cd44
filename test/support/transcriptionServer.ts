import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted OpenAI-compatible audio server on loopback, for voice tests: `POST
 * /v1/audio/transcriptions` (multipart) and `POST /v1/audio/speech` (JSON). It records every
 * request — its multipart fields, the file's name, type and size, and whether the file is a
 * valid PCM WAV and how long — and answers what the test scripted: a transcript, or one of
 * the three error shapes servers use (OpenAI, whisper.cpp, FastAPI/speaches).
 */

export interface RecordedAudioRequest {
  path: string;
  authorization: string | undefined;
  /** Multipart fields other than `file` (transcription), or the JSON body (speech). */
  fields: Record<string, unknown>;
  file?: { name: string; type: string; bytes: number; wav: WavFacts | { problem: string } };
  /** The server's own time for it: its arrival → the answer handed to the socket (set once answered). */
  handledMs?: number;
}

export interface WavFacts {
  seconds: number;
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Root mean square of the samples (0 silence … 1 full scale): was anything heard? */
  rms: number;
}

export type ScriptedAnswer =
  | { text: string }
  | { error: 'openai' | 'whisper' | 'fastapi' | 'fastapi-validation'; status: number; message: string }
  | { status: number; body: string; contentType?: string };

export interface TranscriptionServer {
  /** The base URL for `[voice] endpoint`: `http://127.0.0.1:PORT/v1`. */
  url: string;
  requests: RecordedAudioRequest[];
  /** Answers given in order, one per transcription request; when none is left, `fallback` is. */
  script(...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

/** What the file in a request holds, read from its RIFF header on our own (not the engine's reader). */
export function wavFacts(buffer: Buffer): WavFacts | { problem: string } {
  if (buffer.length < 12 || buffer.toString('ascii', 0, 4) !== 'RIFF' || buffer.toString('ascii', 8, 12) !== 'WAVE') return { problem: 'not RIFF/WAVE' };
  let offset = 12;
  let format: { sampleRate: number; channels: number; bitsPerSample: number; pcm: boolean } | undefined;
  while (offset + 8 <= buffer.length) {
    const id = buffer.toString('ascii', offset, offset + 4);
    const size = buffer.readUInt32LE(offset + 4);
    if (id === 'fmt ') format = { pcm: buffer.readUInt16LE(offset + 8) === 1, channels: buffer.readUInt16LE(offset + 10), sampleRate: buffer.readUInt32LE(offset + 12), bitsPerSample: buffer.readUInt16LE(offset + 22) };
    if (id === 'data') {
      if (!format) return { problem: 'data before fmt' };
      if (!format.pcm || format.bitsPerSample !== 16) return { problem: 'not 16-bit PCM' };
      if (size > buffer.length - offset - 8) return { problem: `data chunk says ${size} bytes, ${buffer.length - offset - 8} present` };
      const samples = size / 2;
      let sum = 0;
      for (let index = 0; index < samples; index++) sum += (buffer.readInt16LE(offset + 8 + index * 2) / 32768) ** 2;
      return { seconds: size / (format.channels * 2 * format.sampleRate), sampleRate: format.sampleRate, channels: format.channels, bitsPerSample: 16, rms: samples ? Math.sqrt(sum / samples) : 0 };
    }
    offset += 8 + size + (size & 1);
  }
  return { problem: 'no data chunk' };
}

/** A 16 kHz mono 16-bit WAV file of `samples`. */
export function wav16k(samples: Int16Array): Buffer {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A silent 16 kHz mono WAV: what `/audio/speech` answers. */
export function silentWav(seconds: number): Buffer {
  return wav16k(new Int16Array(Math.round(seconds * 16_000)));
}

function errorBody(answer: Extract<ScriptedAnswer, { error: string }>): string {
  switch (answer.error) {
    case 'openai':
      return JSON.stringify({ error: { message: answer.message, type: 'invalid_request_error', param: null, code: null } });
    case 'whisper':
      return JSON.stringify({ error: answer.message });
    case 'fastapi':
      return JSON.stringify({ detail: answer.message });
    case 'fastapi-validation':
      return JSON.stringify({ detail: [{ loc: ['body', 'file'], msg: answer.message, type: 'missing' }] });
  }
}

function send(response: ServerResponse, status: number, body: string | Buffer, contentType = 'application/json'): void {
  response.writeHead(status, { 'content-type': contentType });
  response.end(body);
}

export async function startTranscriptionServer(fallback: ScriptedAnswer = { text: 'list the files here' }): Promise<TranscriptionServer> {
  const requests: RecordedAudioRequest[] = [];
  const answers: ScriptedAnswer[] = [];

  /** Keeps `recorded` and times it: the bench subtracts the server's own time from what the user waits. */
  const record = (recorded: RecordedAudioRequest, response: ServerResponse, arrived: number) => {
    requests.push(recorded);
    response.once('finish', () => (recorded.handledMs = performance.now() - arrived));
  };

  const transcription = async (request: IncomingMessage, response: ServerResponse, path: string, arrived: number) => {
    const form = await new Response(request as unknown as ReadableStream, { headers: { 'content-type': request.headers['content-type'] ?? '' } }).formData().catch(() => undefined);
    const file = form?.get('file');
    const fields: Record<string, string> = {};
    form?.forEach((value, name) => {
      if (name !== 'file') fields[name] = String(value);
    });
    const recorded: RecordedAudioRequest = { path, authorization: request.headers.authorization, fields };
    record(recorded, response, arrived);
    if (!file || typeof file === 'string') return send(response, 400, errorBody({ error: 'whisper', status: 400, message: "no 'file' field in the request" }));
    const bytes = Buffer.from(await file.arrayBuffer());
    recorded.file = { name: file.name, type: file.type, bytes: bytes.length, wav: wavFacts(bytes) };
    const answer = answers.shift() ?? fallback;
    if ('text' in answer) return send(response, 200, JSON.stringify({ text: answer.text }));
    if ('error' in answer) return send(response, answer.status, errorBody(answer));
    return send(response, answer.status, answer.body, answer.contentType);
  };

  const speech = async (request: IncomingMessage, response: ServerResponse, path: string, arrived: number) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    let fields: Record<string, unknown> = {};
    try {
      fields = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return send(response, 400, JSON.stringify({ detail: 'body is not JSON' }));
    }
    record({ path, authorization: request.headers.authorization, fields }, response, arrived);
    // Long enough that a test stops it before it ends by itself.
    send(response, 200, silentWav(20), 'audio/wav');
  };

  const server = createServer((request, response) => {
    const arrived = performance.now();
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const handle = request.method !== 'POST' ? undefined : path === '/v1/audio/transcriptions' ? transcription : path === '/v1/audio/speech' ? speech : undefined;
    if (!handle) {
      record({ path, authorization: request.headers.authorization, fields: {} }, response, arrived);
      return send(response, 404, JSON.stringify({ error: { message: `no route ${request.method} ${path}` } }));
    }
    handle(request, response, path, arrived).catch((error: unknown) => send(response, 500, JSON.stringify({ error: String(error) })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...more) => answers.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
