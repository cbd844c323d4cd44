import { chordLabel } from '../actions/chords';
import { primaryChord } from '../actions/keybindings';
import { agentStatusText } from './agentStatusText';
import { newConversation } from './agentRequests';
import { useConversationStore } from './conversationStore';
import { ContextGauge } from './ContextGauge';
import { ModelPicker } from './ModelPicker';
import { closeAiPanel, draftAutoTask } from './panelControl';
import { formatCost, formatTokens } from './usageFormat';

/** Model, usage, cost, context gauge, what the agent is doing; New conversation and Close. */
export function AiHeader() {
  const model = useConversationStore((state) => state.conversation?.model);
  const backend = useConversationStore((state) => state.conversation?.backend);
  const usage = useConversationStore((state) => state.conversation?.usage);
  const status = useConversationStore((state) => state.conversation?.status ?? 'idle');
  const statusDetail = useConversationStore((state) => state.conversation?.statusDetail);
  const connected = useConversationStore((state) => state.conversation !== undefined);
  const toggleChord = primaryChord('ai.toggle');
  const cost = formatCost(usage?.costUsd);

  return (
    <header className="ai-header">
      <div className="ai-header__row">
        <h2 className="ai-header__title">AI</h2>
        <span className={`ai-status ai-status--${status}`} data-testid="ai-status" data-status={status} role="status" title={connected ? statusDetail : undefined}>
          {connected ? agentStatusText(status) : 'Not connected'}
        </span>
        <span className="ai-header__spacer" />
        <button
          type="button"
          className="ai-header__button"
          data-testid="ai-auto"
          title="Auto mode: give the AI a task to work on in the active pane (!auto <task>)"
          onClick={draftAutoTask}
        >
          Auto…
        </button>
        <button
          type="button"
          className="ai-header__button"
          data-testid="ai-new"
          title="Start a new conversation"
          onClick={() => void newConversation()}
        >
          New
        </button>
        <button
          type="button"
          className="ai-header__button ai-header__close"
          data-testid="ai-close"
          aria-label="Close the AI panel"
          title={`Close${toggleChord ? ` (${chordLabel(toggleChord)})` : ''}`}
          onClick={closeAiPanel}
        >
          ×
        </button>
      </div>
      {connected && (
        <div className="ai-header__row ai-header__meta">
          {backend && <ModelPicker model={model ?? ''} backend={backend} />}
          {usage && (
            <span
              className="ai-header__usage"
              data-testid="ai-usage"
              data-input-tokens={usage.inputTokens}
              data-output-tokens={usage.outputTokens}
              title={`${usage.inputTokens.toLocaleString()} input tokens, ${usage.outputTokens.toLocaleString()} output tokens`}
            >
              ↑{formatTokens(usage.inputTokens)} ↓{formatTokens(usage.outputTokens)}
            </span>
          )}
          {usage && (
            <span
              className="ai-header__cost"
              data-testid="ai-cost"
              title={cost ? 'Estimated: each request at the list price of the model that answered it' : `${model ?? 'This model'} has no price in Tandem's table: its cost is not guessed`}
            >
              {cost ? `${cost}${usage.costUnknown ? ' + unknown' : ''}` : 'cost unknown'}
            </span>
          )}
          {usage && <ContextGauge usage={usage} />}
        </div>
      )}
    </header>
  );
}
