import { useCallback } from 'react';
import { paneSessions } from '../terminal/paneSessions';
import { BlockMark } from './BlockMark';
import { useBlocksStore } from './blocksStore';

const NO_BLOCKS: string[] = [];

/**
 * One element per block of the pane, over the terminal's left edge. Re-renders only when a
 * block is added; each mark follows its own block; positions are set by the BlockPositioner.
 */
export function BlockLayer({ paneId }: { paneId: number }) {
  const blockIds = useBlocksStore((state) => state.idsByPane[paneId] ?? NO_BLOCKS);
  const layerRef = useCallback(
    (element: HTMLDivElement | null) => paneSessions.get(paneId)?.blocks.positioner.setLayer(element ?? undefined),
    [paneId],
  );
  return (
    <div className="block-layer" ref={layerRef} data-testid="block-layer">
      {blockIds.map((blockId) => (
        <BlockMark key={blockId} paneId={paneId} blockId={blockId} />
      ))}
    </div>
  );
}
