import { callAudioServer, endpointHost, endpointUrl } from './audioServerCall';

export interface SpeechRequest {
  /** `[voice] speech_endpoint`: the base URL. */
  endpoint: string;
  model: string;
  voice: string;
  input: string;
  apiKey: string | undefined;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** `POST {endpoint}/audio/speech` (OpenAI's shape, as speaches serves it): the answer read aloud, as MP3 bytes. */
export async function requestSpeech(request: SpeechRequest): Promise<{ audio: Uint8Array; mimeType: string }> {
  const response = await callAudioServer({
    url: endpointUrl(request.endpoint, '/audio/speech'),
    init: {
      method: 'POST',
      body: JSON.stringify({ model: request.model, voice: request.voice, input: request.input, response_format: 'mp3' }),
      headers: { 'content-type': 'application/json', ...(request.apiKey ? { authorization: `Bearer ${request.apiKey}` } : {}) },
    },
    server: `The speech server at ${endpointHost(request.endpoint)}`,
    timeoutMs: request.timeoutMs,
    fetch: request.fetch ?? fetch,
  });
  return { audio: new Uint8Array(await response.arrayBuffer()), mimeType: response.headers.get('content-type') ?? 'audio/mpeg' };
}
