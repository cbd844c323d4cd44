export type ModelErrorKind =
  | 'no-key'
  | 'auth'
  | 'permission'
  | 'model-not-found'
  | 'bad-request'
  | 'rate-limit'
  | 'overloaded'
  | 'server'
  | 'network'
  | 'timeout'
  | 'stream-broken'
  | 'cancelled';

const RETRYABLE: ReadonlySet<ModelErrorKind> = new Set(['rate-limit', 'overloaded', 'server', 'network', 'timeout']);
/** The endpoint itself failed (no connection, DNS, TLS, no answer, 5xx); a 4xx is about the request or the key, which another backend does not fix. */
const UNREACHABLE: ReadonlySet<ModelErrorKind> = new Set(['overloaded', 'server', 'network', 'timeout']);
/** Failed before any HTTP answer: no connection, DNS, TLS, or no answer in time. */
const NO_ANSWER: ReadonlySet<ModelErrorKind> = new Set(['network', 'timeout']);

/** A failed model request, with a message that tells the user what to do about it. */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly options: {
      /** From `retry-after` / `retry-after-ms`, when the server said how long to wait. */
      retryAfterMs?: number;
      /** Some of the answer had already streamed when it broke. */
      partial?: boolean;
      status?: number;
    } = {},
  ) {
    super(message);
  }

  /** Worth retrying automatically: only when nothing was streamed yet (no duplicate answers). */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind) && !this.options.partial;
  }

  /** The backend could not be reached or failed on its side before answering: a fallback backend may answer instead. */
  get unreachable(): boolean {
    return UNREACHABLE.has(this.kind) && !this.options.partial;
  }

  /** Not even an HTTP answer came back (connection refused, DNS, TLS, no answer in time). */
  get noAnswer(): boolean {
    return NO_ANSWER.has(this.kind) && !this.options.partial;
  }
}

/** `retry-after` in seconds or as an HTTP date, or `retry-after-ms`; capped at ten minutes. */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const cap = (ms: number) => Math.min(Math.max(0, ms), 600_000);
  const millis = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(millis)) return cap(millis);
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return cap(seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? cap(date - now) : undefined;
}

/** Turns an HTTP status from any backend into a ModelError with an actionable message. */
export function errorForStatus(
  status: number,
  detail: string,
  context: { endpoint: string; model: string; keySource: string; retryAfterMs?: number },
): ModelError {
  const said = detail ? ` The server said: ${detail}` : '';
  const retryAfter = context.retryAfterMs;
  switch (status) {
    case 401:
      return new ModelError('auth', `The API key was refused (401). Check ${context.keySource}.${said}`, { status });
    case 403:
      return new ModelError('permission', `This key is not allowed to use ${context.model} (403).${said}`, { status });
    case 404:
      return new ModelError(
        'model-not-found',
        `Model "${context.model}" was not found at ${context.endpoint} (404). Pick another model in Settings → AI or set TANDEM_MODEL.${said}`,
        { status },
      );
    case 429:
      return new ModelError('rate-limit', `Rate limited by ${context.endpoint} (429).${said}`, { status, retryAfterMs: retryAfter });
    case 529:
      return new ModelError('overloaded', `The model service is overloaded (529).${said}`, { status, retryAfterMs: retryAfter });
    default:
      if (status >= 500) {
        return new ModelError('server', `The model service failed (${status}).${said}`, { status, retryAfterMs: retryAfter });
      }
      return new ModelError('bad-request', `The request was rejected (${status}).${said}`, { status });
  }
}

export function networkError(endpoint: string, cause: unknown, partial: boolean): ModelError {
  const reason = causeText(cause);
  if (partial) {
    return new ModelError('stream-broken', `The answer broke off mid-stream (${reason}). What arrived is kept above; Retry asks for the answer again.`, {
      partial,
    });
  }
  return new ModelError('network', `Cannot reach ${endpoint} (${reason}). Check your connection or the endpoint in Settings → AI.`);
}

function causeText(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: string }).code ?? ((cause as { cause?: { code?: string } }).cause?.code);
  return code ? `${code}: ${cause.message}` : cause.message;
}
