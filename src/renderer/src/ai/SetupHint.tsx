import { useUiStore } from '../app/uiStore';
import { useConversationStore } from './conversationStore';

/** No model can be reached: how to connect one. The terminal works as usual meanwhile. */
export function SetupHint() {
  const hint = useConversationStore((state) => state.conversation?.setupHint);
  const openSettings = useUiStore((state) => state.setSettingsOpen);
  if (!hint) return null;
  return (
    <div className="ai-setup" data-testid="ai-setup-hint" role="note">
      <strong className="ai-setup__title">Connect a model</strong>
      <p className="ai-setup__text">{hint}</p>
      <button type="button" onClick={() => openSettings(true)}>
        Open AI settings
      </button>
    </div>
  );
}
