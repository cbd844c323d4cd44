import { revokeGrant } from './agentRequests';
import { useConversationStore } from './conversationStore';

const WARNING_SHARE = 0.8;

/**
 * What the approval gate is working with, when it needs saying: a policy.toml that cannot
 * be used, a token budget running out, and the command shapes allowed for this session
 * (each can be withdrawn).
 */
export function SafetyBar() {
  const conversation = useConversationStore((state) => state.conversation);
  if (!conversation) return null;
  const { policyProblems, budget, grants } = conversation;
  const share = budget.limit > 0 ? budget.used / budget.limit : 0;
  if (policyProblems.length === 0 && share < WARNING_SHARE && grants.length === 0) return null;
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
