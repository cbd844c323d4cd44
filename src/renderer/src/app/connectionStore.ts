import { create } from 'zustand';
import type { ConnectionStatus } from '../transport/engineConnection';

interface ConnectionState {
  status: ConnectionStatus;
  detail: string | undefined;
  /** Failed attempts since the last good connection, to tell "blip" from "engine gone". */
  failures: number;
  setStatus(status: ConnectionStatus, detail?: string): void;
}

export const useConnectionStore = create<ConnectionState>()((set) => ({
  status: 'connecting',
  detail: undefined,
  failures: 0,
  setStatus: (status, detail) =>
    set((state) => ({
      status,
      detail,
      failures: status === 'open' ? 0 : status === 'reconnecting' ? state.failures + 1 : state.failures,
    })),
}));
