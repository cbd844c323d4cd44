/**
 * What we know about models: the context window, for the panel's context gauge and the
 * history that fits. Unknown models (local ones) get a default window. Prices: modelPrices.ts.
 */
interface ModelFacts {
  contextWindow: number;
}

const FAMILIES: [RegExp, ModelFacts][] = [
  [/^claude-/, { contextWindow: 200_000 }],
  [/^gpt-4o/, { contextWindow: 128_000 }],
  [/^gpt-4\.1/, { contextWindow: 1_000_000 }],
  [/^gpt-5/, { contextWindow: 400_000 }],
];

const UNKNOWN: ModelFacts = { contextWindow: 32_000 };

/** What the model picker offers for a backend when its endpoint does not list its models. */
export const CATALOG_MODELS: Record<'anthropic' | 'openai-compatible', readonly string[]> = {
  anthropic: ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5', 'claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'],
  'openai-compatible': ['gpt-5', 'gpt-4.1', 'gpt-4o', 'gpt-4o-mini', 'llama3.1', 'qwen2.5-coder'],
};

export function modelFacts(model: string): ModelFacts {
  return FAMILIES.find(([pattern]) => pattern.test(model))?.[1] ?? UNKNOWN;
}

/** Claude models that use Anthropic's `computer_20250124` tool (Claude 3.7 Sonnet and the Claude 4 and later families). */
const COMPUTER_USE_MODELS = /^claude-(3-7-sonnet|sonnet-4|opus-4|haiku-4-5|(sonnet|opus|haiku)-[5-9])/;

export function supportsComputerUse(model: string): boolean {
  return COMPUTER_USE_MODELS.test(model);
}
