import type { ScreenInfo, WindowInfo } from '../desktop';
import { DesktopError } from '../desktopError';
import { rectContains, type Point } from '../geometry';
import type { WindowExclusion } from '../privacy/windowExclusion';
import type { BatchedTool, BatchResult } from '../toolBatch';
import { parseMonitors, screenAt } from './screenLayout';
import { parseWindowProperties, windowIdsOf } from './windowProperties';
import { hexWindowId, parseWindowTree, topLevelOf } from './windowTree';
import type { X11Tools } from './x11Tools';

/**
 * What to read besides the tree: `properties` (exact UTF-8 titles and pids, one xprop per
 * window; otherwise the tree's names and classes), `focus`, `screens`. A capture's privacy
 * pass needs none of them; each costs a process.
 */
export interface WindowDetail {
  properties?: boolean;
  focus?: boolean;
  screens?: boolean;
}

export const FULL_DETAIL: WindowDetail = { properties: true, focus: true, screens: true };

export interface WindowSnapshot {
  /** Bottom of the stack first. */
  windows: WindowInfo[];
  screens: ScreenInfo[];
  /** The window manager speaks EWMH (_NET_ACTIVE_WINDOW …): focus and close go through it. */
  ewmh: boolean;
}

/**
 * The windows on an X display, read with xwininfo, xprop and xdotool. With an EWMH window
 * manager the windows are its client list and a window's `frame` is the frame around it;
 * without one (a bare Xvfb, some kiosks) they are the root's viewable children.
 */
export async function readWindows(tools: X11Tools, exclusion: WindowExclusion, detail: WindowDetail = FULL_DETAIL): Promise<WindowSnapshot> {
  const [outputs, focus] = await Promise.all([tools.batch(windowListTools(detail)), detail.focus ? readFocus(tools) : undefined]);
  return windowsFrom(outputs, tools, exclusion, detail, focus);
}

/**
 * The tools a window list reads (xrandr too for `screens`), run as one batch: each process
 * the engine starts costs it milliseconds. A capture adds xwd to the same batch.
 */
export function windowListTools(detail: WindowDetail): BatchedTool[] {
  return [
    { command: 'xwininfo', args: ['-root', '-tree'] },
    { command: 'xprop', args: ['-root', '-notype', '_NET_CLIENT_LIST_STACKING', '_NET_CLIENT_LIST', '_NET_ACTIVE_WINDOW'] },
    { command: 'xdotool', args: ['search', '--onlyvisible', '--maxdepth', '2', '--name', ''] },
    ...(detail.screens ? [{ command: 'xrandr', args: ['--listmonitors'] }] : []),
  ];
}

/** The windows from the outputs of `windowListTools(detail)` (and the focus, when read). */
export async function windowsFrom(
  outputs: readonly BatchResult[],
  tools: X11Tools,
  exclusion: WindowExclusion,
  detail: WindowDetail,
  focus?: string,
): Promise<WindowSnapshot> {
  const [treeOutput, rootProperties] = [required(outputs[0]), required(outputs[1])];
  const viewable = optional(outputs[2]);
  // Without xdotool which windows are viewable is not known: every window counts (a privacy black-out covers too much, never too little).
  const viewableKnown = !(outputs[2] instanceof DesktopError && outputs[2].code === 'unavailable');
  const screens = detail.screens ? await screensFrom(tools, optional(outputs[3])) : [];
  const tree = parseWindowTree(treeOutput);
  const stacking = windowIdsOf(rootProperties, '_NET_CLIENT_LIST_STACKING');
  const clients = stacking ?? windowIdsOf(rootProperties, '_NET_CLIENT_LIST');
  const ewmh = clients !== undefined;
  const viewableIds = new Set(viewable.split('\n').filter(Boolean).map(hexWindowId));
  const candidates = ewmh
    ? clients.map((id) => tree.windows.get(id)).filter((window) => window !== undefined)
    : [...tree.windows.values()].filter((window) => window.depth === 1 && (!viewableKnown || viewableIds.has(window.id)));
  // _NET_CLIENT_LIST_STACKING is bottom to top already; otherwise the root's children are.
  if (!stacking) candidates.sort((a, b) => (topLevelOf(tree.windows, a.id)?.stackIndex ?? 0) - (topLevelOf(tree.windows, b.id)?.stackIndex ?? 0));

  const activeId = ewmh ? windowIdsOf(rootProperties, '_NET_ACTIVE_WINDOW')?.[0] : undefined;
  const focusedTop = topLevelOf(tree.windows, activeId ?? focus ?? '');
  const windows = await Promise.all(
    candidates.map(async (window) => {
      const properties = detail.properties
        ? parseWindowProperties(await tools.text('xprop', ['-notype', '-id', window.id, 'WM_CLASS', '_NET_WM_NAME', 'WM_NAME', '_NET_WM_PID']).catch(() => ''))
        : { title: window.name, application: window.application, instance: window.instance };
      const frame = topLevelOf(tree.windows, window.id)?.rect ?? window.rect;
      const centre = { x: window.rect.x + window.rect.width / 2, y: window.rect.y + window.rect.height / 2 };
      const info: WindowInfo = {
        id: window.id,
        ...properties,
        geometry: window.rect,
        frame,
        focused: focusedTop !== undefined && topLevelOf(tree.windows, window.id) === focusedTop,
        visible: viewableIds.size === 0 || viewableIds.has(window.id),
        screen: screenAt(screens, centre),
        excluded: false,
      };
      info.excluded = exclusion.excludes(info);
      return info;
    }),
  );
  return { windows, screens, ewmh };
}

/** The topmost visible window whose frame holds `point`. */
export function windowAt(snapshot: WindowSnapshot, point: Point): WindowInfo | undefined {
  return [...snapshot.windows].reverse().find((window) => window.visible && rectContains(window.frame, point));
}

export function findWindow(snapshot: WindowSnapshot, id: string): WindowInfo {
  const wanted = normaliseId(id);
  const window = snapshot.windows.find((candidate) => candidate.id === wanted);
  if (!window) throw new DesktopError('not_found', `no window ${id} (list the windows for current ids)`);
  return window;
}

function normaliseId(id: string): string {
  const trimmed = id.trim().toLowerCase();
  if (!/^(0x[0-9a-f]+|\d+)$/.test(trimmed)) throw new DesktopError('invalid', `"${id}" is not an X window id (e.g. 0x2a00007)`);
  return hexWindowId(trimmed);
}

export async function readScreens(tools: X11Tools): Promise<ScreenInfo[]> {
  return screensFrom(tools, await tools.text('xrandr', ['--listmonitors']).catch(() => ''));
}

/** The monitors `xrandr --listmonitors` printed, else the whole display as one screen. */
async function screensFrom(tools: X11Tools, xrandrOutput: string): Promise<ScreenInfo[]> {
  const monitors = parseMonitors(xrandrOutput);
  if (monitors.length > 0) return monitors;
  const [width, height] = (await tools.text('xdotool', ['getdisplaygeometry'])).trim().split(/\s+/).map(Number);
  return [{ index: 0, name: 'screen', primary: true, rect: { x: 0, y: 0, width: width ?? 0, height: height ?? 0 } }];
}

/** A tool's output as text, or its error thrown. */
function required(result: BatchResult | undefined): string {
  if (result instanceof DesktopError) throw result;
  return result?.toString('utf8') ?? '';
}

/** A tool's output as text, or nothing when it failed (xdotool search finds no window; xrandr without RandR). */
function optional(result: BatchResult | undefined): string {
  return result instanceof DesktopError ? '' : (result?.toString('utf8') ?? '');
}

/**
 * The window with keyboard focus. Without a window manager the focus is often PointerRoot
 * (keys go to the window under the pointer), which xdotool reports as an error: then it is
 * the window under the pointer.
 */
async function readFocus(tools: X11Tools): Promise<string | undefined> {
  const focused = await tools.text('xdotool', ['getwindowfocus']).catch(() => '');
  if (/^\d+$/.test(focused.trim()) && Number(focused) > 1) return hexWindowId(focused.trim());
  const pointer = await tools.text('xdotool', ['getmouselocation', '--shell']).catch(() => '');
  const window = /WINDOW=(\d+)/.exec(pointer)?.[1];
  return window ? hexWindowId(window) : undefined;
}
