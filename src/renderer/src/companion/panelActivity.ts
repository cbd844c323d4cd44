import { useAiPanelStore } from '../ai/aiPanelStore';
import { focusedPaneId } from '../layout/layoutStore';
import type { EngineConnection } from '../transport/engineConnection';

/** Reports about one pane at most this often: the engine only needs to know the user is at work. */
const REPORT_EVERY_MS = 1_000;

/** The pane a block id (`p<paneId>b<ordinal>`) belongs to. */
function paneOfBlock(blockId: string): number | undefined {
  const match = /^p(\d+)b\d+$/.exec(blockId);
  return match ? Number(match[1]) : undefined;
}

/**
 * Work on a pane's output in the AI panel tells Watch mode the user is not stuck: typing in
 * the AI input (about the active pane, where a message goes) and attaching a block (about its
 * pane). Sending is seen by the engine itself.
 */
export function wirePanelActivity(connection: EngineConnection): void {
  const reportedAt = new Map<number, number>();
  const report = (paneId: number | undefined) => {
    if (paneId === undefined || connection.status !== 'open') return;
    const now = Date.now();
    if (now - (reportedAt.get(paneId) ?? -Infinity) < REPORT_EVERY_MS) return;
    reportedAt.set(paneId, now);
    connection.request('companion.activity', { paneId }).catch(() => {
      // The pane closed or the connection dropped: nothing to tell.
    });
  };
  useAiPanelStore.subscribe((panel, before) => {
    if (panel.draft !== before.draft && panel.draft.trim() !== '') report(focusedPaneId());
    if (panel.attachments === before.attachments) return;
    const added = panel.attachments.filter((blockId) => !before.attachments.includes(blockId));
    for (const paneId of new Set(added.map(paneOfBlock))) report(paneId);
  });
}
