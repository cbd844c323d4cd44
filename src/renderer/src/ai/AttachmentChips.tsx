import { blockStatus, describeBlock } from '../blocks/blockStatus';
import { useBlocksStore } from '../blocks/blocksStore';
import { useAiPanelStore } from './aiPanelStore';

/** Commands that go with the next message; × removes one. */
export function AttachmentChips() {
  const attachments = useAiPanelStore((state) => state.attachments);
  const detach = useAiPanelStore((state) => state.detach);
  const blocks = useBlocksStore((state) => state.byId);
  if (attachments.length === 0) return null;
  return (
    <ul className="ai-attachments" data-testid="attachments" aria-label="Attached commands">
      {attachments.map((blockId) => {
        const block = blocks[blockId];
        const command = block?.command || '(unknown command)';
        const status = block ? blockStatus(block) : 'unknown';
        return (
          <li
            key={blockId}
            className={`ai-chip ai-chip--${status}`}
            data-testid="attachment"
            data-block-id={blockId}
            title={block ? describeBlock(block) : blockId}
          >
            <span className="ai-chip__command">{command}</span>
            {block?.exitCode !== undefined && <span className="ai-chip__exit">exit {block.exitCode}</span>}
            {status === 'running' && <span className="ai-chip__exit">running</span>}
            <button
              type="button"
              className="ai-chip__remove"
              data-action="remove-attachment"
              aria-label={`Remove ${command}`}
              onClick={() => detach(blockId)}
            >
              ×
            </button>
          </li>
        );
      })}
    </ul>
  );
}
