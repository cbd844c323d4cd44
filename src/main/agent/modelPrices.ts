/**
 * List prices per model family, as of one date: what the panel, the traces, `tandem usage`
 * and `[ai] daily_budget_usd` price a request at. A model no entry matches (a local model, a
 * new family) has no price: its cost is unknown, never guessed.
 */
export const PRICES_AS_OF = '2026-11-01';

export interface ModelPrice {
  family: string;
  /** USD per million input / output tokens. */
  input: number;
  output: number;
}

const PRICE_TABLE: readonly (ModelPrice & { pattern: RegExp })[] = [
  { family: 'claude-opus-4.5+', pattern: /^claude-opus-4-[5-9]|^claude-opus-[5-9]/, input: 5, output: 25 },
  { family: 'claude-opus-4', pattern: /^claude-opus-4/, input: 15, output: 75 },
  { family: 'claude-sonnet', pattern: /^claude-(3-7-)?sonnet|^claude-sonnet/, input: 3, output: 15 },
  { family: 'claude-haiku-4+', pattern: /^claude-haiku-4|^claude-haiku-[5-9]/, input: 1, output: 5 },
  { family: 'claude-3-5-haiku', pattern: /^claude-3-5-haiku/, input: 0.8, output: 4 },
  { family: 'gpt-4o-mini', pattern: /^gpt-4o-mini/, input: 0.15, output: 0.6 },
  { family: 'gpt-4o', pattern: /^gpt-4o/, input: 2.5, output: 10 },
  { family: 'gpt-4.1', pattern: /^gpt-4\.1/, input: 2, output: 8 },
  { family: 'gpt-5', pattern: /^gpt-5/, input: 1.25, output: 10 },
];

export function priceOf(model: string): ModelPrice | undefined {
  const entry = PRICE_TABLE.find(({ pattern }) => pattern.test(model));
  return entry && { family: entry.family, input: entry.input, output: entry.output };
}

/** What a request cost in USD, or undefined when the model has no price (cost unknown). */
export function costUsd(model: string, usage: { inputTokens: number; outputTokens: number }): number | undefined {
  const price = priceOf(model);
  if (!price) return undefined;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}
