import { create } from 'zustand';
import type { Block } from '../../../shared/blocks';

interface BlocksState {
  byId: Record<string, Block>;
  /** Block ids per pane, in the order the commands ran. */
  idsByPane: Record<number, string[]>;
  /** The block Ctrl+Shift+Up/Down moved to, per pane. */
  selectedByPane: Record<number, string | undefined>;
  upsert(block: Block): void;
  merge(paneId: number, blocks: Block[]): void;
  select(paneId: number, blockId: string | undefined): void;
  removePane(paneId: number): void;
  clear(): void;
}

function byOffset(byId: Record<string, Block>) {
  return (a: string, b: string) => (byId[a]?.outputOffset ?? 0) - (byId[b]?.outputOffset ?? 0);
}

export const useBlocksStore = create<BlocksState>()((set) => ({
  byId: {},
  idsByPane: {},
  selectedByPane: {},

  upsert(block) {
    set((state) => {
      const known = state.byId[block.id];
      const byId = { ...state.byId, [block.id]: known ? { ...known, ...block } : block };
      if (known) return { byId };
      const ids = [...(state.idsByPane[block.paneId] ?? []), block.id];
      const previous = byId[ids[ids.length - 2] ?? ''];
      if (previous && previous.outputOffset > block.outputOffset) ids.sort(byOffset(byId));
      return { byId, idsByPane: { ...state.idsByPane, [block.paneId]: ids } };
    });
  },

  merge(paneId, blocks) {
    set((state) => {
      const byId = { ...state.byId };
      const ids = new Set(state.idsByPane[paneId] ?? []);
      for (const block of blocks) {
        // A live event may already have newer data for this block than the listing.
        const known = state.byId[block.id];
        const knownIsNewer = known && (known.endedAt !== undefined || block.endedAt === undefined);
        byId[block.id] = knownIsNewer ? known : block;
        ids.add(block.id);
      }
      return { byId, idsByPane: { ...state.idsByPane, [paneId]: [...ids].sort(byOffset(byId)) } };
    });
  },

  select(paneId, blockId) {
    set((state) =>
      state.selectedByPane[paneId] === blockId ? state : { selectedByPane: { ...state.selectedByPane, [paneId]: blockId } },
    );
  },

  removePane(paneId) {
    set((state) => {
      const ids = state.idsByPane[paneId];
      if (!ids) return state;
      const byId = { ...state.byId };
      for (const id of ids) delete byId[id];
      const idsByPane = { ...state.idsByPane };
      delete idsByPane[paneId];
      const selectedByPane = { ...state.selectedByPane };
      delete selectedByPane[paneId];
      return { byId, idsByPane, selectedByPane };
    });
  },

  clear() {
    set({ byId: {}, idsByPane: {}, selectedByPane: {} });
  },
}));
