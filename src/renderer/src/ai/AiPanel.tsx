import { useEffect, useState, type DragEvent } from 'react';
import { AiHeader } from './AiHeader';
import { AiInput } from './AiInput';
import { useAiPanelStore } from './aiPanelStore';
import { AttachmentChips } from './AttachmentChips';
import { carriesBlock, droppedBlockId } from './blockDrag';
import { useConversationStore } from './conversationStore';
import { MessageList } from './MessageList';
import { OfflineQueueBar } from './OfflineQueueBar';
import { PanelNotice } from './PanelNotice';
import { attachBlocks } from './panelControl';
import { onPanelKeyDown } from './panelKeys';
import { PanelResizeHandle } from './PanelResizeHandle';
import { SafetyBar } from './SafetyBar';
import { SetupHint } from './SetupHint';
import { ShareOfferBar } from './ShareOfferBar';
import { WatcherCards } from './WatcherCards';

/** The AI sidebar, right of the panes; rendered only while open. */
export function AiPanel() {
  const open = useAiPanelStore((state) => state.open);
  return open ? <AiPanelContent /> : null;
}

function AiPanelContent() {
  const width = useAiPanelStore((state) => state.width);
  const status = useConversationStore((state) => state.conversation?.status ?? 'idle');
  const [dropping, setDropping] = useState(false);

  useEffect(() => {
    if (!dropping) return;
    // A drag cancelled (Esc) or dropped elsewhere must not leave the highlight on.
    const reset = () => setDropping(false);
    window.addEventListener('dragend', reset, true);
    window.addEventListener('drop', reset, true);
    return () => {
      window.removeEventListener('dragend', reset, true);
      window.removeEventListener('drop', reset, true);
    };
  }, [dropping]);

  const onDragOver = (event: DragEvent<HTMLElement>) => {
    if (!carriesBlock(event.dataTransfer)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    if (!dropping) setDropping(true);
  };
  const onDragLeave = (event: DragEvent<HTMLElement>) => {
    const next = event.relatedTarget;
    if (!(next instanceof Node && event.currentTarget.contains(next))) setDropping(false);
  };
  const onDrop = (event: DragEvent<HTMLElement>) => {
    setDropping(false);
    const blockId = droppedBlockId(event.dataTransfer);
    if (!blockId) return;
    event.preventDefault();
    attachBlocks([blockId], { focusInput: true });
  };

  return (
    <aside
      className={`ai-panel${dropping ? ' ai-panel--drop' : ''}`}
      data-testid="ai-panel"
      data-status={status}
      data-drop-target={dropping ? 'true' : undefined}
      aria-label="AI assistant"
      style={{ width: `${width}px` }}
      onKeyDown={onPanelKeyDown}
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      <PanelResizeHandle />
      <div className="ai-panel__column">
        <AiHeader />
        <SetupHint />
        <PanelNotice />
        <SafetyBar />
        <MessageList />
        <WatcherCards />
        <OfflineQueueBar />
        <ShareOfferBar />
        <AttachmentChips />
        <AiInput />
      </div>
      {dropping && (
        <div className="ai-panel__drop-hint" aria-hidden="true">
          Drop to attach this command
        </div>
      )}
    </aside>
  );
}
