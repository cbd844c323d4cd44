import type { FallbackBackend, Settings } from '../../shared/settings';
import { AnthropicBackend } from './backends/anthropicBackend';
import { OpenAiCompatibleBackend } from './backends/openaiCompatibleBackend';
import { ANTHROPIC_ENDPOINT, isLoopbackUrl, OPENAI_ENDPOINT, shownEndpoint, type ModelConnection } from './modelEndpoint';

/**
 * How long a conversation stays on the fallback it switched to before its next request tries
 * the configured backend again. Long enough not to pay the retries on every turn while the
 * configured one is down; short enough that a restarted endpoint is soon used again.
 */
export const FALLBACK_HOLD_MS = 5 * 60_000;

/** The next backend a request goes to, and the fallbacks passed over on the way (with why). */
export interface FallbackStep {
  connection: ModelConnection;
  skipped: string[];
}

/**
 * A `[[ai.fallback]]` table's connection. Its key comes from the variable `api_key_env`
 * names; without one, the backend's usual variable is used only at the vendor's own endpoint
 * (that key never goes to another host), and a loopback endpoint needs none.
 */
export function connectFallback(entry: FallbackBackend, env: NodeJS.ProcessEnv): ModelConnection {
  const { backend: backendKind, model } = entry;
  const baseURL = entry.base_url || (backendKind === 'anthropic' ? ANTHROPIC_ENDPOINT : OPENAI_ENDPOINT);
  const keyVariable = entry.api_key_env || (entry.base_url ? undefined : backendKind === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY');
  const apiKey = keyVariable ? env[keyVariable] : undefined;
  const endpoint = shownEndpoint(baseURL);
  if (!apiKey && !isLoopbackUrl(baseURL)) {
    const setupHint = keyVariable ? `${keyVariable} is not set` : 'its table names no api_key_env';
    return { backendKind, model, endpoint, setupHint };
  }
  const keySource = keyVariable ?? 'api_key_env in its [[ai.fallback]] table';
  const backend =
    backendKind === 'anthropic'
      ? new AnthropicBackend({ apiKey: apiKey || 'not-needed', baseURL, keySource })
      : new OpenAiCompatibleBackend({ apiKey, baseURL, keySource });
  return { backendKind, model, endpoint, backend };
}

/** "openai-compatible llama3 at http://127.0.0.1:11434/v1". */
export function describeConnection(connection: Pick<ModelConnection, 'backendKind' | 'model' | 'endpoint'>): string {
  return `${connection.backendKind} ${connection.model}${connection.endpoint ? ` at ${connection.endpoint}` : ''}`;
}

/**
 * Where a conversation's requests go when the configured backend cannot be reached: the
 * `[[ai.fallback]]` tables in order. Once switched, requests stay on the fallback for
 * FALLBACK_HOLD_MS, until the settings change, another model is chosen or a new conversation
 * starts; then the configured backend is tried first again.
 */
export class FallbackChain {
  private active: { index: number; since: number; settingsKey: string } | undefined;
  private readonly built = new Map<number, { key: string; connection: ModelConnection }>();

  constructor(
    private readonly settings: () => Settings['ai'],
    private readonly env: NodeJS.ProcessEnv,
    private readonly holdMs = FALLBACK_HOLD_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get holdMinutes(): number {
    return Math.round(this.holdMs / 60_000);
  }

  /** The fallback requests go to now, if the conversation switched to one and it holds. */
  current(): ModelConnection | undefined {
    const index = this.activeIndex();
    return index === undefined ? undefined : this.connectionAt(index);
  }

  /** A backend that can be used (its key is there) comes after the one in use. */
  hasNext(): boolean {
    const entries = this.settings().fallback;
    for (let index = (this.activeIndex() ?? -1) + 1; index < entries.length; index++) if (this.connectionAt(index).backend) return true;
    return false;
  }

  /**
   * Switches to the next fallback that can be used, after the one in use (the configured
   * backend comes before the first). None left: back to the configured backend for the next
   * request, and undefined.
   */
  next(): FallbackStep | undefined {
    const entries = this.settings().fallback;
    const skipped: string[] = [];
    for (let index = (this.activeIndex() ?? -1) + 1; index < entries.length; index++) {
      const connection = this.connectionAt(index);
      if (connection.backend) {
        this.active = { index, since: this.now(), settingsKey: this.settingsKey() };
        return { connection, skipped };
      }
      skipped.push(`${describeConnection(connection)} (${connection.setupHint})`);
    }
    this.reset();
    return undefined;
  }

  /** The configured backend again, from the next request on. */
  reset(): void {
    this.active = undefined;
  }

  private activeIndex(): number | undefined {
    const active = this.active;
    if (!active) return undefined;
    if (this.now() - active.since >= this.holdMs || active.settingsKey !== this.settingsKey()) {
      this.active = undefined;
      return undefined;
    }
    return active.index;
  }

  private connectionAt(index: number): ModelConnection {
    const entry = this.settings().fallback[index]!;
    const key = JSON.stringify(entry);
    const built = this.built.get(index);
    if (built?.key === key) return built.connection;
    const connection = connectFallback(entry, this.env);
    this.built.set(index, { key, connection });
    return connection;
  }

  private settingsKey(): string {
    const ai = this.settings();
    return JSON.stringify([ai.backend, ai.model, ai.base_url, ai.fallback]);
  }
}
