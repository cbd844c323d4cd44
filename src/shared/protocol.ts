import { z } from 'zod';
import { AgentRequestSchemas, type AgentEvents, type AgentResults } from './agent';
import type { Block, TerminalState } from './blocks';
import type { PaneRunning } from './closeQuestion';
import type { CompanionHint } from './companion';
import type { RemoteShell } from './remoteShell';
import { HistoryRequestSchemas, type HistoryResults } from './history';
import { SettingsPatchSchema, type Settings } from './settings';
import { SshRequestSchemas, type SshEvents, type SshResults } from './ssh';
import { WatchersRequestSchemas, type WatcherFiredEvent, type WatchersResults } from './watchers';
import { VoiceRequestSchemas, type VoiceResults } from './voice';
import { WatcherRunRequestSchemas, type WatcherRunEvents, type WatcherRunResults } from './watcherRuns';

/**
 * The one contract between the renderer and the engine, carried unchanged by both
 * transports (an Electron MessagePort and a loopback WebSocket).
 *
 * Text messages are JSON: requests `{id, method, params}` from the renderer, responses
 * `{id, result}` / `{id, error}` and events `{event, payload}` from the engine.
 * Binary messages carry terminal bytes: see `encodeFrame` / `decodeFrame`.
 */

const paneId = z.number().int().nonnegative();
const dimension = z.number().int();

export const RequestSchemas = {
  /** First call of a connection: settings, restored layout, live panes to re-attach. */
  hello: z.object({}).strict(),
  'pane.create': z
    .object({
      cols: dimension,
      rows: dimension,
      shell: z.string().optional(),
      cwd: z.string().optional(),
      /** Key of a pane in the saved session whose scrollback should be shown first. */
      restoreKey: z.string().optional(),
    })
    .strict(),
  /** Re-attach to a pane that is still alive in the engine (browser tab reloaded). */
  'pane.attach': z.object({ paneId }).strict(),
  'pane.resize': z.object({ paneId, cols: dimension, rows: dimension }).strict(),
  'pane.close': z.object({ paneId }).strict(),
  /** What closing these panes would end (the renderer asks before it closes them). */
  'pane.running': z.object({ paneIds: z.array(paneId).max(256) }).strict(),
  'pane.blocks': z.object({ paneId }).strict(),
  /** Private mode: while on, nothing of the pane is written to the block history. */
  'pane.private': z.object({ paneId, on: z.boolean() }).strict(),
  'block.output': z.object({ blockId: z.string().max(64) }).strict(),
  /** Which pane has the keyboard while the window has focus (null: none); Watch mode's long-pause hint needs it. */
  'pane.focus': z.object({ paneId: paneId.nullable() }).strict(),
  /** The user works on a pane's output in the AI panel (types there, attaches a block, sends): not stuck, for Watch mode. */
  'companion.activity': z.object({ paneId }).strict(),
  'settings.update': SettingsPatchSchema,
  /** The renderer's layout; the engine adds each pane's cwd and scrollback and saves it. */
  'session.save': z.lazy(() => SessionLayoutSchema),
  ...WatchersRequestSchemas,
  ...AgentRequestSchemas,
  ...HistoryRequestSchemas,
  ...SshRequestSchemas,
  ...VoiceRequestSchemas,
  ...WatcherRunRequestSchemas,
} as const;

export type Method = keyof typeof RequestSchemas;
export type Params<M extends Method> = z.infer<(typeof RequestSchemas)[M]>;

export const RequestSchema = z
  .object({
    id: z.number().int(),
    method: z.string(),
    params: z.unknown(),
  })
  .strict();

/** Layout of tabs and splits. Leaves name panes by their engine id. */
export type LayoutNode =
  | { kind: 'pane'; paneId: number }
  | { kind: 'split'; direction: 'row' | 'column'; sizes: number[]; children: LayoutNode[] };

export const LayoutNodeSchema: z.ZodType<LayoutNode> = z.lazy(() =>
  z.union([
    z.object({ kind: z.literal('pane'), paneId }).strict(),
    z
      .object({
        kind: z.literal('split'),
        direction: z.enum(['row', 'column']),
        sizes: z.array(z.number().positive()).max(16),
        children: z.array(LayoutNodeSchema).min(1).max(16),
      })
      .strict(),
  ]),
);

export const SessionLayoutSchema = z
  .object({
    tabs: z
      .array(
        z
          .object({
            title: z.string().max(200),
            layout: LayoutNodeSchema,
            /** The tab's focused pane (a leaf of `layout`). */
            focusedPaneId: paneId.optional(),
          })
          .strict(),
      )
      .max(64),
    activeTab: z.number().int().nonnegative(),
  })
  .strict();
export type SessionLayout = z.infer<typeof SessionLayoutSchema>;

/** A saved layout where leaves point at restorable panes (cwd + scrollback) instead of live ids. */
export type RestoredLayoutNode =
  | { kind: 'pane'; restoreKey: string; cwd: string; shell: string }
  | { kind: 'split'; direction: 'row' | 'column'; sizes: number[]; children: RestoredLayoutNode[] };

export interface RestoredSession {
  /** `focusedRestoreKey`: the leaf that had the focus (absent in sessions saved before it was kept). */
  tabs: { title: string; layout: RestoredLayoutNode; focusedRestoreKey?: string }[];
  activeTab: number;
}

export interface PaneInfo {
  paneId: number;
  /** Absolute path of the shell actually running (may be a fallback). */
  shell: string;
  /** Short name: bash, zsh, fish, sh ... */
  shellName: string;
  integration: boolean;
  cwd: string;
  state: TerminalState;
  cols: number;
  rows: number;
  /** Serialized screen + scrollback to write before live output (restore or re-attach). */
  snapshot?: string;
  /**
   * Re-attach only: written after `snapshot` once its blocks are placed, before live output.
   * The rest of the terminal's state: the alternate screen a full-screen program has up,
   * scroll regions, cursor, the modes programs set (mouse, bracketed paste, application
   * keys…) and charsets.
   */
  snapshotState?: string;
  /** Byte offset in the output stream at which live output continues after the snapshot. */
  streamOffset: number;
  exited?: { exitCode: number; signal?: number };
  /** Re-attach only: the pane is in private mode (nothing of it is recorded in the history). */
  private?: boolean;
  /** The pane's blocks so far, oldest first (attach and re-attach). Later ones arrive as events. */
  blocks?: Block[];
  /** Where the blocks held in `snapshot` lie in it. A block not listed began after it, or its start left the scrollback. */
  snapshotBlocks?: SnapshotBlock[];
  /** The remote shell the pane is on (reached with `ssh`, integrated); absent on this machine. */
  remote?: RemoteShell;
}

/** Where the cursor was at a block edge, counted from the snapshot's final cursor position. */
export interface SnapshotBlockEdge {
  /** 0 is the row the snapshot leaves the cursor on; -1 the row above it, and so on. */
  row: number;
  column: number;
}

/** A block's edges in a snapshot: start where its output began (C mark), end where it ended (D mark). */
export interface SnapshotBlock {
  blockId: string;
  start: SnapshotBlockEdge;
  /** Absent while the block still runs: its end arrives as a live block.finished event. */
  end?: SnapshotBlockEdge;
  /** The command cleared the screen: the block is what it printed after that, from `start`, without a command line. */
  cleared?: true;
}

export interface HelloResult {
  version: string;
  platform: string;
  settings: Settings;
  /** Set when config.toml could not be used; the defaults are in effect. Does not name the file (`configPath` does). */
  settingsError?: string;
  /** config.toml works but uses old key spellings: one line saying which and what to write. */
  settingsNotice?: string;
  /** The saved session could not be read; the app starts fresh. */
  sessionError?: string;
  configPath: string;
  /** The shell given on the command line (`tandem web --shell PATH`): it wins over `shell.path` while this engine runs. */
  shellOverride?: string;
  /** The engine's home directory, so the page can show paths under it as `~/…`. */
  home?: string;
  /** policy.toml files that cannot be used: every agent step asks until they are fixed. */
  policyProblems?: string[];
  restoredSession?: RestoredSession;
  livePanes: PaneInfo[];
  /** What the host process knows the user should see (e.g. the OS sandbox is off). */
  hostWarnings?: HostWarning[];
  /** Watch-mode hints showing now (a reloaded page gets them back). */
  companionHints?: CompanionHint[];
}

/** A warning about how the app runs, shown as a banner until dismissed. */
export interface HostWarning {
  /** Stable key (the banner's key). */
  key: string;
  message: string;
  detail?: string;
}

export interface Results extends AgentResults, HistoryResults, SshResults, VoiceResults, WatchersResults, WatcherRunResults {
  hello: HelloResult;
  'pane.create': PaneInfo;
  'pane.attach': PaneInfo;
  'pane.resize': { cols: number; rows: number };
  'pane.close': Record<string, never>;
  'pane.running': { panes: PaneRunning[] };
  'pane.blocks': Block[];
  'pane.private': { private: boolean };
  'block.output': { text: string; truncated: boolean; lineCount: number };
  'pane.focus': Record<string, never>;
  'companion.activity': Record<string, never>;
  'settings.update': { settings: Settings };
  'session.save': Record<string, never>;
}

export type Response =
  | { id: number; result: unknown }
  | { id: number; error: { message: string; code?: string } };

/**
 * What takes a pane notice away by itself, its cause being gone: the user types in the pane,
 * a command starts there, an auto run starts, the agent has nothing left in progress, or
 * (for a purely informative one) a short while passes. A notice without any stays until
 * dismissed.
 */
export type NoticeEnd = 'typing' | 'command' | 'run-start' | 'agent-idle' | 'timeout';

export interface Events extends AgentEvents, SshEvents, WatcherRunEvents {
  /** `remote`: the shell the pane is on, when it is one reached with `ssh` (absent: this machine); `cwd` is that shell's. */
  'pane.state': { paneId: number; state: TerminalState; cwd: string; integration: boolean; title?: string; remote?: RemoteShell };
  'pane.exit': { paneId: number; exitCode: number; signal?: number; message: string };
  /**
   * Something the user should read in the pane's status area (fallback shell, integration off ...).
   * `ends`: what takes it away by itself (its cause gone); `topic`: names what the notice is
   * about, so the engine can withdraw it once that is over.
   */
  'pane.notice': { paneId: number; level: 'info' | 'warning' | 'error'; message: string; ends?: NoticeEnd[]; topic?: string };
  /**
   * The renderer fell behind on a flood of plain text: `bytes` of output right here were not sent,
   * since the lines after them fill its whole buffer (screen and scrollback) and would have
   * scrolled them out unseen. The output after it starts with `prefixBytes` bytes of SGR
   * sequences that set the attributes the skipped lines left (not part of the stream's offsets).
   */
  'pane.skipped': { paneId: number; bytes: number; prefixBytes: number };
  /** From here on the output is for a terminal of this size (the engine applied a resize). */
  'pane.resized': { paneId: number; cols: number; rows: number };
  /** The pane's notices on `topic` no longer hold (integration reported in after all ...): they go. */
  'pane.notice.withdrawn': { paneId: number; topic: string };
  /** The pane's private mode changed: nothing of it is recorded in the history while it is on. */
  'pane.private': { paneId: number; private: boolean };
  'block.started': Block;
  'block.finished': Block;
  'settings.changed': { settings: Settings; error?: string; notice?: string };
  /** Watch mode's hint for a pane, or null when it ends (a success, hints switched off, the pane closed). */
  'companion.hint': { paneId: number; hint: CompanionHint | null };
  /** A watcher fired (what it does then is the next step's: docs/watchers.md). */
  'watcher.fired': WatcherFiredEvent;
  /** The watchers or their state changed (a file reloaded, a watcher switched, a hold began or ended): ask `watchers.list` again. */
  'watchers.changed': Record<string, never>;
  /** Another window or tab took over this engine session. */
  'connection.replaced': Record<string, never>;
}

export type EventName = keyof Events;
export interface EventMessage<E extends EventName = EventName> {
  event: E;
  payload: Events[E];
}

/** Binary frame kinds. */
export const FrameKind = {
  /** engine → renderer: terminal output bytes */
  Output: 1,
  /** renderer → engine: keyboard / paste bytes */
  Input: 2,
  /** renderer → engine: payload is a u32 count of output bytes xterm has finished parsing */
  Ack: 3,
  /** renderer → engine: a push-to-talk recording (a WAV); the pane field is the clip's id (voice.ts) */
  VoiceClip: 4,
} as const;
export type FrameKind = (typeof FrameKind)[keyof typeof FrameKind];

const HEADER = 5;

/** Frame layout: u8 kind, u32 little-endian pane id, payload. */
export function encodeFrame(kind: FrameKind, pane: number, payload: Uint8Array): Uint8Array {
  const frame = new Uint8Array(HEADER + payload.byteLength);
  const view = new DataView(frame.buffer);
  view.setUint8(0, kind);
  view.setUint32(1, pane, true);
  frame.set(payload, HEADER);
  return frame;
}

export function decodeFrame(
  data: ArrayBuffer | Uint8Array,
): { kind: FrameKind; paneId: number; payload: Uint8Array } | undefined {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  if (bytes.byteLength < HEADER) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kind = view.getUint8(0);
  if (kind !== FrameKind.Output && kind !== FrameKind.Input && kind !== FrameKind.Ack && kind !== FrameKind.VoiceClip) return undefined;
  return { kind, paneId: view.getUint32(1, true), payload: bytes.subarray(HEADER) };
}

export function encodeAck(pane: number, byteCount: number): Uint8Array {
  const payload = new Uint8Array(4);
  new DataView(payload.buffer).setUint32(0, byteCount >>> 0, true);
  return encodeFrame(FrameKind.Ack, pane, payload);
}

export function decodeAckCount(payload: Uint8Array): number {
  if (payload.byteLength < 4) return 0;
  return new DataView(payload.buffer, payload.byteOffset, 4).getUint32(0, true);
}
