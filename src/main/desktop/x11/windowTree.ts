import type { Rect } from '../geometry';

export interface TreeWindow {
  /** Lower-case hex, as X tools print it ("0x40000c"). */
  id: string;
  /** 1 for children of the root window (top-level windows or window-manager frames). */
  depth: number;
  parent: string | undefined;
  /** Absolute position and size (without the border). */
  rect: Rect;
  /** The name and WM_CLASS xwininfo prints; xprop reads them exactly (escapes, UTF-8). */
  name: string;
  instance: string;
  application: string;
  /** Index among the root's children, bottom of the stack first. */
  stackIndex: number;
}

const ROOT_LINE = /Root window id: (0x[0-9a-f]+)/;
const WINDOW_LINE = /^(\s+)(0x[0-9a-f]+) (?:"(.*)"|\(has no name\)): \(((?:"[^"]*" ?)*)\)\s+(\d+)x(\d+)\+-?\d+\+-?\d+\s+\+(-?\d+)\+(-?\d+)\s*$/;
const ROOT_CHILD_INDENT = 5;
const INDENT_PER_LEVEL = 3;

/**
 * The window tree `xwininfo -root -tree` prints: every window with its parent, absolute
 * geometry and, for the root's children, the stacking order (XQueryTree lists them bottom
 * first). Titles and classes are read separately with xprop, which decodes UTF-8 properly.
 */
export function parseWindowTree(output: string): { rootId: string; windows: Map<string, TreeWindow> } {
  const rootId = ROOT_LINE.exec(output)?.[1] ?? '';
  const windows = new Map<string, TreeWindow>();
  const ancestors: string[] = [];
  let stackIndex = 0;
  for (const line of output.split('\n')) {
    const match = WINDOW_LINE.exec(line);
    if (!match) continue;
    const [, indent, id, name, classes, width, height, x, y] = match as unknown as string[] as [string, string, string, string | undefined, string, string, string, string, string];
    const [instance = '', application = ''] = [...classes.matchAll(/"([^"]*)"/g)].map((part) => part[1]!);
    const depth = Math.round((indent.length - ROOT_CHILD_INDENT) / INDENT_PER_LEVEL) + 1;
    ancestors.length = depth - 1;
    const parent = depth === 1 ? rootId : ancestors[depth - 2];
    windows.set(id, {
      id,
      depth,
      parent,
      rect: { x: Number(x), y: Number(y), width: Number(width), height: Number(height) },
      name: name ?? '',
      instance,
      application,
      stackIndex: depth === 1 ? stackIndex++ : -1,
    });
    ancestors[depth - 1] = id;
  }
  return { rootId, windows };
}

/** The root's child that holds `id` (itself when it is one), or undefined when `id` is not in the tree. */
export function topLevelOf(windows: Map<string, TreeWindow>, id: string): TreeWindow | undefined {
  let window = windows.get(id);
  while (window && window.depth > 1) window = window.parent ? windows.get(window.parent) : undefined;
  return window;
}

/** Normalises a window id from decimal (xdotool) or hex (xprop, xwininfo) to xwininfo's hex form. */
export function hexWindowId(id: string | number): string {
  const value = typeof id === 'number' ? id : id.startsWith('0x') ? parseInt(id, 16) : Number(id);
  return `0x${value.toString(16)}`;
}
