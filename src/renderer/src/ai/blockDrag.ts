import type { Block } from '../../../shared/blocks';

/** DataTransfer type of a command block dragged from its gutter mark or menu. */
export const BLOCK_DRAG_TYPE = 'application/x-tandem-block';

export function startBlockDrag(dataTransfer: DataTransfer, block: Block): void {
  dataTransfer.setData(BLOCK_DRAG_TYPE, block.id);
  dataTransfer.setData('text/plain', block.command);
  dataTransfer.effectAllowed = 'copy';
}

/** During dragover only the types can be read, not the data. */
export function carriesBlock(dataTransfer: DataTransfer | null): boolean {
  return dataTransfer !== null && Array.from(dataTransfer.types).includes(BLOCK_DRAG_TYPE);
}

export function droppedBlockId(dataTransfer: DataTransfer | null): string | undefined {
  const id = dataTransfer?.getData(BLOCK_DRAG_TYPE).trim();
  return id && /^[\w-]{1,64}$/.test(id) ? id : undefined;
}
