import type { ConversationUsage } from '../../../shared/agent';

/** 950, 1.2k, 12k, 1.3M */
export function formatTokens(count: number): string {
  const value = Math.max(0, Math.round(count));
  if (value < 1_000) return String(value);
  if (value < 10_000) return `${trimZero((value / 1_000).toFixed(1))}k`;
  if (value < 1_000_000) return `${Math.round(value / 1_000)}k`;
  return `${trimZero((value / 1_000_000).toFixed(1))}M`;
}

function trimZero(text: string): string {
  return text.replace(/\.0$/, '');
}

/** "$0.012", "$1.24", "<$0.001"; undefined when the price is unknown (local models). */
export function formatCost(usd: number | undefined): string | undefined {
  if (usd === undefined || !Number.isFinite(usd)) return undefined;
  if (usd <= 0) return '$0.00';
  if (usd < 0.001) return '<$0.001';
  if (usd < 1) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

/** Share of the model's context window the last request used, 0..1. */
export function contextFraction(usage: ConversationUsage): number {
  if (usage.contextWindow <= 0) return 0;
  return Math.min(1, Math.max(0, usage.contextTokens / usage.contextWindow));
}

/** The gauge turns amber, then red, as the window fills. */
export function contextLevel(fraction: number): 'low' | 'high' | 'full' {
  if (fraction >= 0.9) return 'full';
  if (fraction >= 0.7) return 'high';
  return 'low';
}
