import { create } from 'zustand';

interface SshPickerState {
  open: boolean;
  setOpen(open: boolean): void;
}

/** Whether the "SSH to Host…" picker is showing. */
export const useSshPicker = create<SshPickerState>()((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));
