import { useUiStore } from '../app/uiStore';
import { useConversationStore } from './conversationStore';

/**
 * No model can be reached: how to connect one. The terminal works as usual meanwhile. A short
 * card above the conversation, in its own space: the full how-to folds out, and the errors of
 * messages sent meanwhile only point here.
 */
export function SetupHint() {
  const hint = useConversationStore((state) => state.conversation?.setupHint);
  const openSettings = useUiStore((state) => state.setSettingsOpen);
  if (!hint) return null;
  return (
    <div className="ai-setup" data-testid="ai-setup-hint" role="note">
      <div className="ai-setup__head">
        <strong className="ai-setup__title">Connect a model</strong>
        <button type="button" onClick={() => openSettings(true)}>
          Open AI settings
        </button>
      </div>
      <details className="ai-setup__how">
        <summary>The panel needs one to answer (the terminal works as usual). How?</summary>
        <p className="ai-setup__text">{hint}</p>
      </details>
    </div>
  );
}
