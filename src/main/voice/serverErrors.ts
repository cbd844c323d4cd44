/**
 * One sentence for what an OpenAI-compatible audio server answered instead of a result. The
 * three shapes met in practice: OpenAI's `{"error": {"message": …}}`, whisper.cpp's
 * `{"error": "…"}` and FastAPI's (speaches) `{"detail": "…"}` or `{"detail": [{"msg": …}]}`;
 * anything else is quoted as text, cut short.
 */
export function serverErrorSentence(server: string, status: number, body: string): string {
  const said = errorMessage(body);
  const hint = STATUS_HINTS[status] ?? (status >= 500 ? 'The server failed; its own log says why.' : '');
  return `${server} answered ${status}${said ? `: ${said}` : ''}.${hint ? ` ${hint}` : ''}`;
}

const MAX_QUOTED = 300;

const STATUS_HINTS: Record<number, string> = {
  401: 'Check the key: [voice] api_key_env names the environment variable that holds it.',
  403: 'Check the key: [voice] api_key_env names the environment variable that holds it.',
  404: 'Check [voice] endpoint and model (a whisper.cpp server needs --inference-path /v1/audio/transcriptions).',
  413: 'The recording is too long for this server: lower [voice] max_seconds.',
  429: 'The server is rate limiting: wait a moment and try again.',
  503: 'The server is not ready (still loading its model?): try again in a moment.',
};

function errorMessage(body: string): string | undefined {
  const text = body.trim();
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return cut(text);
  }
  const found = messageIn(parsed);
  return found ? cut(found) : cut(text);
}

function messageIn(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return typeof value === 'string' ? value : undefined;
  const record = value as Record<string, unknown>;
  const error = record.error;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message;
  const detail = record.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const messages = detail.map((entry) => (entry && typeof entry === 'object' ? (entry as { msg?: unknown }).msg : entry)).filter((entry): entry is string => typeof entry === 'string');
    if (messages.length > 0) return messages.join('; ');
  }
  return typeof record.message === 'string' ? record.message : undefined;
}

function cut(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return line.length > MAX_QUOTED ? `${line.slice(0, MAX_QUOTED)}…` : line;
}
