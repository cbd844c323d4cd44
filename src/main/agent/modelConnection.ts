import type { Settings } from '../../shared/settings';
import { AnthropicBackend } from './backends/anthropicBackend';
import { OpenAiCompatibleBackend } from './backends/openaiCompatibleBackend';
import { ANTHROPIC_ENDPOINT, isLoopbackUrl, OPENAI_ENDPOINT, shownEndpoint, type BackendKind, type ModelConnection } from './modelEndpoint';
import { FallbackChain } from './modelFallback';
import { smallModelFor, type SmallModelChoice } from './summarizer/smallModel';

export type { BackendKind, ModelConnection } from './modelEndpoint';

/** API keys typed into Settings → AI. The Electron build keeps them in the OS keychain. */
export interface ApiKeyStore {
  get(backend: BackendKind): string | undefined;
  set(backend: BackendKind, key: string): Promise<'keychain' | 'memory'>;
}

/** Browser mode has no keychain: a key typed into the UI lasts until the engine stops. */
export class MemoryKeyStore implements ApiKeyStore {
  private readonly keys = new Map<BackendKind, string>();
  get(backend: BackendKind): string | undefined {
    return this.keys.get(backend);
  }
  set(backend: BackendKind, key: string): Promise<'memory'> {
    if (key) this.keys.set(backend, key);
    else this.keys.delete(backend);
    return Promise.resolve('memory');
  }
}


export const SETUP_HINT =
  'No model is connected, so the AI panel cannot answer yet (the terminal works as usual). ' +
  'Set ANTHROPIC_API_KEY in the environment Tandem starts from, or add a key in Settings → AI; ' +
  'or use a local model: in Settings → AI choose the openai-compatible backend with base URL ' +
  'http://127.0.0.1:11434/v1 (Ollama) or http://127.0.0.1:1234/v1 (LM Studio).';

/** A request refused for want of a model: brief, since the panel's "Connect a model" card (SETUP_HINT) says how. */
export const NO_MODEL = 'Not sent: no model is connected. "Connect a model" at the top of the panel says how to connect one.';

/**
 * Picks backend, endpoint, key and model. For Anthropic the environment wins
 * (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL), as the SDK does; TANDEM_MODEL wins over config.
 */
export function connectModel(
  ai: Settings['ai'],
  override: { backend?: BackendKind; model?: string },
  env: NodeJS.ProcessEnv,
  keys: ApiKeyStore,
): ModelConnection {
  const backendKind = override.backend ?? ai.backend;
  const model = override.model ?? (env.TANDEM_MODEL || ai.model);
  if (backendKind === 'anthropic') {
    const envKey = env.ANTHROPIC_API_KEY;
    const apiKey = envKey || keys.get('anthropic');
    if (!apiKey) return { backendKind, model, setupHint: SETUP_HINT };
    const keySource = envKey ? 'ANTHROPIC_API_KEY' : 'the key in Settings → AI';
    const baseURL = env.ANTHROPIC_BASE_URL || ai.base_url || undefined;
    return { backendKind, model, backend: new AnthropicBackend({ apiKey, baseURL, keySource }), endpoint: shownEndpoint(baseURL ?? ANTHROPIC_ENDPOINT) };
  }
  const baseURL = ai.base_url || env.OPENAI_BASE_URL || OPENAI_ENDPOINT;
  const envKey = env.OPENAI_API_KEY;
  const apiKey = envKey || keys.get('openai-compatible');
  if (!apiKey && !isLoopbackUrl(baseURL)) return { backendKind, model, setupHint: SETUP_HINT };
  const keySource = envKey ? 'OPENAI_API_KEY' : 'the key in Settings → AI';
  return { backendKind, model, backend: new OpenAiCompatibleBackend({ apiKey, baseURL, keySource }), endpoint: shownEndpoint(baseURL) };
}

/**
 * The connection for the current settings, this conversation's choice of backend and model,
 * and the stored key — or the fallback the conversation switched to while it holds. Building an SDK client is not free and the view asks on every change,
 * so it is rebuilt only when one of them changes.
 */
export class ModelChoice {
  private override: { backend?: BackendKind; model?: string } = {};
  /** The conversation's connection, and the last one built for the other backend. */
  private readonly cached: Partial<Record<'current' | 'other', { key: string; connection: ModelConnection }>> = {};

  /** The `[[ai.fallback]]` backends a request goes to when this one cannot be reached. */
  readonly fallbacks: FallbackChain;

  constructor(
    private readonly settings: () => Settings['ai'],
    private readonly env: NodeJS.ProcessEnv,
    private readonly keys: ApiKeyStore,
    fallbackHoldMs?: number,
  ) {
    this.fallbacks = new FallbackChain(settings, env, fallbackHoldMs);
  }

  choose(change: { backend?: BackendKind; model?: string }): void {
    this.override = { ...this.override, ...change };
    this.fallbacks.reset();
  }

  connection(): ModelConnection {
    return this.fallbacks.current() ?? this.configured();
  }

  /** The small model on the connection in use; `[ai] small_model` (`configured`) names one of the configured backend, not of a fallback. */
  smallModel(configured: string): SmallModelChoice {
    return smallModelFor(this.connection(), this.fallbacks.current() ? '' : configured);
  }

  /** The backend and model configured or chosen for this conversation, whatever it falls back to. */
  configured(): ModelConnection {
    return this.connectionWith(this.override, 'current');
  }

  /** The connection `backend` would have if this conversation switched to it (for the model picker). */
  connectionFor(backend: BackendKind): ModelConnection {
    const current = this.override.backend ?? this.settings().backend;
    return backend === current ? this.configured() : this.connectionWith({ backend }, 'other');
  }

  private connectionWith(override: { backend?: BackendKind; model?: string }, slot: 'current' | 'other'): ModelConnection {
    const ai = this.settings();
    const backend = override.backend ?? ai.backend;
    const key = `${JSON.stringify(ai)}|${JSON.stringify(override)}|${this.keys.get(backend) ?? ''}`;
    const cached = this.cached[slot];
    if (cached?.key === key) return cached.connection;
    const connection = connectModel(ai, override, this.env, this.keys);
    this.cached[slot] = { key, connection };
    return connection;
  }
}
