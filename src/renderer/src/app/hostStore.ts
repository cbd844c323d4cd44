import { create } from 'zustand';

/** What the engine's hello says about the machine it runs on. */
interface HostState {
  /** The engine's home directory ('' until the first hello). */
  home: string;
  setHome(home: string): void;
}

export const useHostStore = create<HostState>()((set) => ({
  home: '',
  setHome: (home) => set({ home }),
}));
