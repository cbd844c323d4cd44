import { serverErrorSentence } from './serverErrors';
import { VoiceError } from './voiceError';

export interface AudioServerCall {
  /** The full URL: the configured base and the API's path. */
  url: string;
  init: RequestInit;
  /** The server in words, for messages: "The transcription server at 127.0.0.1:8080". */
  server: string;
  timeoutMs: number;
  fetch: typeof fetch;
}

/** The base URL with an API path added (`…/v1` + `/audio/transcriptions`), whatever slashes it ends with. */
export function endpointUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

/** Where a base URL points, for messages and the log: its host and port, never its path or query. */
export function endpointHost(base: string): string {
  try {
    return new URL(base).host;
  } catch {
    return 'an invalid URL';
  }
}

/**
 * One request to an OpenAI-compatible audio server, with a timeout. Whatever stops it
 * (refused, unreachable, too slow, an error status) becomes a VoiceError in words.
 */
export async function callAudioServer(call: AudioServerCall): Promise<Response> {
  let response: Response;
  try {
    response = await call.fetch(call.url, { ...call.init, signal: AbortSignal.timeout(call.timeoutMs) });
  } catch (error) {
    throw new VoiceError(unreachableSentence(call, error));
  }
  if (!response.ok) {
    const body = await response.text().catch(() => '');
    throw new VoiceError(serverErrorSentence(call.server, response.status, body));
  }
  return response;
}

function unreachableSentence(call: AudioServerCall, error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return `${call.server} did not answer within ${Number((call.timeoutMs / 1000).toFixed(1))} s.`;
  const code = errorCode(error);
  if (code === 'ECONNREFUSED') return `Cannot reach ${lowerFirst(call.server)} (connection refused): is it running?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Cannot reach ${lowerFirst(call.server)}: its host name is not known.`;
  const message = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
  return `Cannot reach ${lowerFirst(call.server)}: ${message}.`;
}

function errorCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = (cause as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
