import { create } from 'zustand';
import type { TerminalState } from '../../../shared/blocks';
import type { Events, NoticeEnd, PaneInfo } from '../../../shared/protocol';
import type { RemoteShell } from '../../../shared/remoteShell';
import { remoteShellOf } from '../remote/remotePlace';

export interface PaneNotice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
  /** What takes it away by itself (its cause gone); without, it stays until dismissed. */
  ends?: NoticeEnd[];
  /** What it is about, when the engine may withdraw it. */
  topic?: string;
}

/** How long a purely informative notice (`ends` has 'timeout') stays. */
export const NOTICE_TIMEOUT_MS = 15_000;

/** What the UI shows about a pane. Terminal bytes are not here; they go straight to xterm. */
export interface PaneMeta {
  paneId: number;
  shell: string;
  shellName: string;
  integration: boolean;
  /** The cwd of the shell the pane is on now (a remote one's, on a remote shell). */
  cwd: string;
  state: TerminalState;
  /** The remote shell the pane is on (reached with `ssh`); absent on this machine. */
  remote?: RemoteShell;
  /** Title the shell set (OSC 0/2), when the engine forwards one. */
  title?: string;
  exited?: { exitCode: number; signal?: number; message: string };
  notices: PaneNotice[];
}

interface PanesState {
  panes: Record<number, PaneMeta>;
  addPane(info: PaneInfo): void;
  removePane(paneId: number): void;
  applyState(update: Events['pane.state']): void;
  markExited(exit: Events['pane.exit']): void;
  addNotice(notice: Events['pane.notice']): void;
  dismissNotice(paneId: number, noticeId: number): void;
  /** `cause` is gone: the notices it ends go, in one pane or (undefined) in all. */
  endNotices(paneId: number | undefined, cause: NoticeEnd): void;
  /** The engine says the notices on `topic` no longer hold. */
  withdrawNotices(paneId: number, topic: string): void;
  clear(): void;
}

/** Whether two states are of the same shell of the pane's stack (this machine's, or one remote's). */
function sameShell(before: RemoteShell | undefined, after: RemoteShell | undefined): boolean {
  return before?.host === after?.host && before?.user === after?.user;
}

const MAX_NOTICES = 3;
let noticeCounter = 0;

function updatePane(
  panes: Record<number, PaneMeta>,
  paneId: number,
  change: (pane: PaneMeta) => PaneMeta,
): Record<number, PaneMeta> {
  const pane = panes[paneId];
  if (!pane) return panes;
  return { ...panes, [paneId]: change(pane) };
}

export const usePanesStore = create<PanesState>()((set, get) => ({
  panes: {},

  addPane(info) {
    set((state) => ({
      panes: {
        ...state.panes,
        [info.paneId]: {
          paneId: info.paneId,
          shell: info.shell,
          shellName: info.shellName,
          integration: info.integration,
          cwd: info.cwd,
          state: info.state,
          remote: remoteShellOf(info.remote),
          exited: info.exited
            ? { ...info.exited, message: `The shell exited with code ${info.exited.exitCode}.` }
            : undefined,
          notices: state.panes[info.paneId]?.notices ?? [],
        },
      },
    }));
  },

  removePane(paneId) {
    set((state) => {
      if (!(paneId in state.panes)) return state;
      const panes = { ...state.panes };
      delete panes[paneId];
      return { panes };
    });
  },

  applyState(update) {
    set((state) => ({
      panes: updatePane(state.panes, update.paneId, (pane) => ({
        ...pane,
        state: update.state,
        // A shell that has not said its directory yet (a remote one just started) has none: not the one below it.
        cwd: update.cwd || (sameShell(pane.remote, update.remote) ? pane.cwd : ''),
        integration: update.integration,
        remote: remoteShellOf(update.remote),
        title: update.title ?? pane.title,
      })),
    }));
  },

  markExited(exit) {
    set((state) => ({
      panes: updatePane(state.panes, exit.paneId, (pane) => ({
        ...pane,
        exited: { exitCode: exit.exitCode, signal: exit.signal, message: exit.message },
      })),
    }));
  },

  addNotice(notice) {
    const id = ++noticeCounter;
    set((state) => ({
      panes: updatePane(state.panes, notice.paneId, (pane) => ({
        ...pane,
        // The same message again replaces the one shown (a retried `!auto`), it does not stack.
        notices: [
          ...pane.notices.filter((shown) => shown.message !== notice.message),
          { id, level: notice.level, message: notice.message, ends: notice.ends, ...(notice.topic && { topic: notice.topic }) },
        ].slice(-MAX_NOTICES),
      })),
    }));
    if (notice.ends?.includes('timeout')) window.setTimeout(() => get().dismissNotice(notice.paneId, id), NOTICE_TIMEOUT_MS);
  },

  endNotices(paneId, cause) {
    set((state) => {
      let panes = state.panes;
      for (const pane of Object.values(state.panes)) {
        if (paneId !== undefined && pane.paneId !== paneId) continue;
        if (!pane.notices.some((notice) => notice.ends?.includes(cause))) continue;
        panes = updatePane(panes, pane.paneId, (meta) => ({ ...meta, notices: meta.notices.filter((notice) => !notice.ends?.includes(cause)) }));
      }
      return panes === state.panes ? state : { panes };
    });
  },

  dismissNotice(paneId, noticeId) {
    set((state) => ({
      panes: updatePane(state.panes, paneId, (pane) => ({
        ...pane,
        notices: pane.notices.filter((notice) => notice.id !== noticeId),
      })),
    }));
  },

  withdrawNotices(paneId, topic) {
    set((state) => ({
      panes: updatePane(state.panes, paneId, (pane) => ({ ...pane, notices: pane.notices.filter((notice) => notice.topic !== topic) })),
    }));
  },

  clear() {
    set({ panes: {} });
  },
}));
