import { create } from 'zustand';
import { clampPanelWidth, loadPanelPreferences, pageStorage, savePanelPreferences } from './panelPreferences';

/** The most attachments one message carries (the engine's limit). */
export const MAX_ATTACHMENTS = 20;

interface AiPanelState {
  open: boolean;
  width: number;
  /** What is typed in the AI input. */
  draft: string;
  /** Block ids that go with the next message. */
  attachments: string[];
  /** Bumped to move keyboard focus into the AI input. */
  inputFocusRequest: number;
  /** When the AI input last lost focus; undefined until it had focus once. */
  inputLeftAt: number | undefined;
  /** Block ids the share bar offers ("Share the N commands you ran since?"). */
  shareOffer: string[] | undefined;
  /** The step whose command is being edited in its plan card. */
  editingStepId: string | undefined;
  /** What was typed in a plan field that Esc closed ("edit:<stepId>", "reason:<stepId>"): it comes back when the field opens again. */
  fieldDrafts: Record<string, string>;
  /** A request that failed, in words, until dismissed or the next request succeeds. */
  notice: string | undefined;
  setOpen(open: boolean): void;
  /** `persist` false while a drag is under way; the last width is saved when it ends. */
  setWidth(width: number, persist?: boolean): void;
  setDraft(draft: string): void;
  attach(blockIds: readonly string[]): void;
  detach(blockId: string): void;
  clearAttachments(): void;
  requestInputFocus(): void;
  setInputLeftAt(time: number | undefined): void;
  setShareOffer(blockIds: string[] | undefined): void;
  setEditingStep(stepId: string | undefined): void;
  /** undefined forgets the draft. */
  setFieldDraft(key: string, text: string | undefined): void;
  setNotice(notice: string | undefined): void;
}

const storage = pageStorage();
const saved = loadPanelPreferences(storage);

function viewportWidth(): number {
  return typeof window === 'undefined' ? Infinity : window.innerWidth;
}

export const useAiPanelStore = create<AiPanelState>()((set, get) => ({
  open: saved.open,
  width: saved.width,
  draft: '',
  attachments: [],
  inputFocusRequest: 0,
  inputLeftAt: undefined,
  shareOffer: undefined,
  editingStepId: undefined,
  fieldDrafts: {},
  notice: undefined,

  setOpen(open) {
    if (get().open === open) return;
    // An editor left open would take focus when the panel comes back (say, for a `#` line).
    set(open ? { open } : { open, editingStepId: undefined });
    savePanelPreferences(storage, { open, width: get().width });
  },
  setWidth(width, persist = true) {
    const clamped = clampPanelWidth(width, viewportWidth());
    if (clamped !== get().width) set({ width: clamped });
    if (persist) savePanelPreferences(storage, { open: get().open, width: clamped });
  },
  setDraft: (draft) => set({ draft }),
  attach: (blockIds) =>
    set((state) => {
      const added = blockIds.filter((id, index) => !state.attachments.includes(id) && blockIds.indexOf(id) === index);
      if (added.length === 0) return state;
      return { attachments: [...state.attachments, ...added].slice(-MAX_ATTACHMENTS) };
    }),
  detach: (blockId) =>
    set((state) =>
      state.attachments.includes(blockId) ? { attachments: state.attachments.filter((id) => id !== blockId) } : state,
    ),
  clearAttachments: () => set({ attachments: [] }),
  requestInputFocus: () => set((state) => ({ inputFocusRequest: state.inputFocusRequest + 1 })),
  setInputLeftAt: (inputLeftAt) => set({ inputLeftAt }),
  setShareOffer: (shareOffer) => set({ shareOffer: shareOffer && shareOffer.length > 0 ? shareOffer : undefined }),
  setEditingStep: (editingStepId) => set({ editingStepId }),
  setFieldDraft: (key, text) =>
    set((state) => {
      const { [key]: _old, ...rest } = state.fieldDrafts;
      return { fieldDrafts: text === undefined ? rest : { ...rest, [key]: text } };
    }),
  setNotice: (notice) => set({ notice }),
}));
