/**
 * What we know about models: context window and list price per million tokens, for the
 * panel's context gauge and cost estimate. Unknown models (local ones) get a default
 * window and no price: the panel then shows tokens without a cost.
 */
interface ModelFacts {
  contextWindow: number;
  /** USD per million input / output tokens. */
  inputPrice?: number;
  outputPrice?: number;
}

const FAMILIES: [RegExp, ModelFacts][] = [
  [/^claude-opus-4-[5-9]|^claude-opus-[5-9]/, { contextWindow: 200_000, inputPrice: 5, outputPrice: 25 }],
  [/^claude-opus-4/, { contextWindow: 200_000, inputPrice: 15, outputPrice: 75 }],
  [/^claude-(3-7-)?sonnet|^claude-sonnet/, { contextWindow: 200_000, inputPrice: 3, outputPrice: 15 }],
  [/^claude-haiku-4|^claude-haiku-[5-9]/, { contextWindow: 200_000, inputPrice: 1, outputPrice: 5 }],
  [/^claude-3-5-haiku/, { contextWindow: 200_000, inputPrice: 0.8, outputPrice: 4 }],
  [/^claude-/, { contextWindow: 200_000 }],
  [/^gpt-4o-mini/, { contextWindow: 128_000, inputPrice: 0.15, outputPrice: 0.6 }],
  [/^gpt-4o/, { contextWindow: 128_000, inputPrice: 2.5, outputPrice: 10 }],
  [/^gpt-4\.1/, { contextWindow: 1_000_000, inputPrice: 2, outputPrice: 8 }],
  [/^gpt-5/, { contextWindow: 400_000, inputPrice: 1.25, outputPrice: 10 }],
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

export function estimateCostUsd(model: string, inputTokens: number, outputTokens: number): number | undefined {
  const facts = modelFacts(model);
  if (facts.inputPrice === undefined || facts.outputPrice === undefined) return undefined;
  return (inputTokens * facts.inputPrice + outputTokens * facts.outputPrice) / 1_000_000;
}

/** Claude models that use Anthropic's `computer_20250124` tool (Claude 3.7 Sonnet and the Claude 4 and later families). */
const COMPUTER_USE_MODELS = /^claude-(3-7-sonnet|sonnet-4|opus-4|haiku-4-5|(sonnet|opus|haiku)-[5-9])/;

export function supportsComputerUse(model: string): boolean {
  return COMPUTER_USE_MODELS.test(model);
}
