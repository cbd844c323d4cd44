import { usePanesStore, type PaneNotice } from './panesStore';

/** Engine notices about a pane (fallback shell, integration off …), dismissible. */
export function PaneNotices({ paneId, notices }: { paneId: number; notices: PaneNotice[] }) {
  const dismiss = usePanesStore((state) => state.dismissNotice);
  if (notices.length === 0) return null;
  return (
    <div className="pane-notices">
      {notices.map((notice) => (
        <div key={notice.id} className={`pane-notice pane-notice--${notice.level}`} data-testid="pane-notice" data-level={notice.level} role="status">
          <span className="pane-notice__text">{notice.message}</span>
          <button type="button" className="pane-notice__dismiss" aria-label="Dismiss notice" onClick={() => dismiss(paneId, notice.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
