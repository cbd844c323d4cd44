import type { ModelBackend } from '../backends/modelBackend';
import type { BackendKind, ModelConnection } from '../modelEndpoint';

/**
 * The small model when `[ai] small_model` is empty: the backend's cheapest current model. An
 * OpenAI-compatible endpoint may serve anything (OpenAI, Ollama, LM Studio), so the user names it.
 */
export const DEFAULT_SMALL_MODELS: Record<BackendKind, string | undefined> = {
  anthropic: 'claude-haiku-4-5',
  'openai-compatible': undefined,
};

export type SmallModelChoice = { ok: true; backend: ModelBackend; model: string } | { ok: false; reason: string };

/** The small model on the conversation's connection (same endpoint and key), or why there is none. */
export function smallModelFor(connection: ModelConnection, configured: string): SmallModelChoice {
  if (!connection.backend) return { ok: false, reason: 'no model is connected (no API key or endpoint is set up)' };
  const model = configured.trim() || DEFAULT_SMALL_MODELS[connection.backendKind];
  if (!model) return { ok: false, reason: 'no small model is named for the OpenAI-compatible endpoint (set [ai] small_model)' };
  return { ok: true, backend: connection.backend, model };
}
