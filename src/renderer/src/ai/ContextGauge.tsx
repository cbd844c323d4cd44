import type { ConversationUsage } from '../../../shared/agent';
import { contextFraction, contextLevel, formatTokens } from './usageFormat';

/** How full the model's context window was on the last request. */
export function ContextGauge({ usage }: { usage: ConversationUsage }) {
  const fraction = contextFraction(usage);
  const percent = Math.round(fraction * 100);
  const label = `Context: ${formatTokens(usage.contextTokens)} of ${formatTokens(usage.contextWindow)} tokens (${percent}%)`;
  return (
    <span
      className={`ai-gauge ai-gauge--${contextLevel(fraction)}`}
      data-testid="ai-context"
      data-context-tokens={usage.contextTokens}
      data-context-window={usage.contextWindow}
      role="meter"
      aria-label="Context window used"
      aria-valuemin={0}
      aria-valuemax={usage.contextWindow}
      aria-valuenow={usage.contextTokens}
      aria-valuetext={label}
      title={label}
    >
      <span className="ai-gauge__bar">
        <span className="ai-gauge__fill" style={{ width: `${percent}%` }} />
      </span>
      <span className="ai-gauge__text">{percent}%</span>
    </span>
  );
}
