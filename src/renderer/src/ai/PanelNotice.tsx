import { useAiPanelStore } from './aiPanelStore';

/** A request the engine refused or could not take, with its reason. */
export function PanelNotice() {
  const notice = useAiPanelStore((state) => state.notice);
  const setNotice = useAiPanelStore((state) => state.setNotice);
  if (!notice) return null;
  return (
    <div className="ai-notice" data-testid="ai-notice" role="alert">
      <span className="ai-notice__text">{notice}</span>
      <button type="button" className="ai-notice__dismiss" aria-label="Dismiss" onClick={() => setNotice(undefined)}>
        ×
      </button>
    </div>
  );
}
