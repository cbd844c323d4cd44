import type { Terminal } from '@xterm/xterm';

declare global {
  /** Exposed by src/preload through contextBridge; absent in browser mode. */
  interface TandemElectronBridge {
    platform: string;
    connect(): void;
  }

  interface Window {
    tandemElectron?: TandemElectronBridge;
    /** Test hook: the xterm instance of every live pane, by engine pane id. */
    __tandem?: { terminals: Map<number, Terminal>; skippedBytes(paneId: number): number };
  }
}

export {};
