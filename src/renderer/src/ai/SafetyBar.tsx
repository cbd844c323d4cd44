import { revokeGrant } from './agentRequests';
import { useConversationStore } from './conversationStore';
import { formatCost } from './usageFormat';

const WARNING_SHARE = 0.8;

/**
 * What the approval gate is working with, when it needs saying: a policy.toml that cannot
 * be used, a token budget running out, and the command shapes allowed for this session
 * (each can be withdrawn).
 */
export function SafetyBar() {
  const conversation = useConversationStore((state) => state.conversation);
  if (!conversation) return null;
  const { policyProblems, budget, grants, dailyBudget } = conversation;
  const share = budget.limit > 0 ? budget.used / budget.limit : 0;
  const dailyShare = dailyBudget ? dailyBudget.spentUsd / dailyBudget.limitUsd : 0;
  const unpriced = dailyBudget?.unpriced ?? [];
  if (policyProblems.length === 0 && share < WARNING_SHARE && grants.length === 0 && dailyShare < WARNING_SHARE && unpriced.length === 0) return null;
  return (
    <div className="safety-bar">
      {policyProblems.map((problem) => (
        <p key={problem} className="safety-bar__problem" data-testid="policy-problem" role="alert">
          {problem}
        </p>
      ))}
      {share >= WARNING_SHARE && (
        <p className="safety-bar__budget" data-testid="budget-warning" role="status">
          {share >= 1 ? 'Token budget used up' : `${Math.round(share * 100)}% of the token budget used`}: {budget.used.toLocaleString()} of{' '}
          {budget.limit.toLocaleString()} tokens this session.
        </p>
      )}
      {dailyBudget && dailyShare >= WARNING_SHARE && (
        <p className="safety-bar__budget" data-testid="daily-budget-warning" role="status">
          {dailyShare >= 1 ? 'Daily budget reached' : `${Math.round(dailyShare * 100)}% of the daily budget spent`}: {formatCost(dailyBudget.spentUsd)} of{' '}
          {formatCost(dailyBudget.limitUsd)} today ([ai] daily_budget_usd).
        </p>
      )}
      {unpriced.length > 0 && (
        <p className="safety-bar__budget" data-testid="daily-budget-unpriced" role="status">
          {unpriced.join(', ')} {unpriced.length === 1 ? 'has' : 'have'} no price in Tandem&apos;s table: not counted toward the daily budget.
        </p>
      )}
      {grants.length > 0 && (
        <details className="safety-bar__grants" data-testid="session-grants">
          <summary>Allowed for this session ({grants.length})</summary>
          <ul>
            {grants.map((grant) => (
              <li key={grant.shape} data-testid="session-grant" data-shape={grant.shape}>
                <code title={`Shape: ${grant.shape}`}>{grant.example}</code>
                <button type="button" onClick={() => void revokeGrant(grant.shape)}>
                  Withdraw
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
