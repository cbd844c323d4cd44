import { callAudioServer, endpointHost, endpointUrl } from './audioServerCall';
import { VoiceError } from './voiceError';

export interface TranscriptionRequest {
  /** `[voice] endpoint`: the base URL (`http://127.0.0.1:8080/v1`). */
  endpoint: string;
  model: string;
  /** ISO-639-1, or empty: the server guesses. */
  language: string;
  /** Sent as a Bearer token when there is one. */
  apiKey: string | undefined;
  wav: Uint8Array;
  timeoutMs: number;
  fetch?: typeof fetch;
  /** Wait before the one retry a 503 (a server still loading its model) gets. */
  retryAfterMs?: number;
}

const RETRY_AFTER_MS = 1_000;

/**
 * `POST {endpoint}/audio/transcriptions` as OpenAI defines it (multipart: `file`, `model`,
 * `language`, `response_format=json`), the way whisper.cpp's server, speaches and the cloud
 * providers take it. Returns the text as the server wrote it; throws a VoiceError in words.
 */
export async function requestTranscript(request: TranscriptionRequest): Promise<string> {
  const server = `The transcription server at ${endpointHost(request.endpoint)}`;
  const send = () =>
    callAudioServer({
      url: endpointUrl(request.endpoint, '/audio/transcriptions'),
      init: { method: 'POST', body: transcriptionForm(request), headers: request.apiKey ? { authorization: `Bearer ${request.apiKey}` } : {} },
      server,
      timeoutMs: request.timeoutMs,
      fetch: request.fetch ?? fetch,
    });
  let response: Response;
  try {
    response = await send();
  } catch (error) {
    if (!(error instanceof VoiceError) || !/ answered 503\b/.test(error.message)) throw error;
    await new Promise((resolve) => setTimeout(resolve, request.retryAfterMs ?? RETRY_AFTER_MS));
    response = await send();
  }
  return transcriptIn(await response.text(), response.headers.get('content-type') ?? '', server);
}

function transcriptionForm(request: TranscriptionRequest): FormData {
  const form = new FormData();
  form.append('file', new Blob([request.wav as Uint8Array<ArrayBuffer>], { type: 'audio/wav' }), 'speech.wav');
  form.append('model', request.model);
  if (request.language) form.append('language', request.language);
  form.append('response_format', 'json');
  return form;
}

/** `{"text": …}`, or the plain text a server that ignores `response_format` sends. */
function transcriptIn(body: string, contentType: string, server: string): string {
  if (contentType.startsWith('text/plain')) return body;
  try {
    const parsed = JSON.parse(body) as { text?: unknown };
    if (typeof parsed.text === 'string') return parsed.text;
  } catch {
    // Said below.
  }
  throw new VoiceError(`${server} answered without a transcript (expected JSON with a "text" field).`);
}
