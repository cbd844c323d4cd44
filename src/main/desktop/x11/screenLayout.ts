import { rectContains, type Point } from '../geometry';
import type { ScreenInfo } from '../desktop';

const MONITOR_LINE = /^\s*(\d+): \+(\*?)(\S+) (\d+)\/\d+x(\d+)\/\d+\+(-?\d+)\+(-?\d+)/;

/** The monitors of `xrandr --listmonitors` ("0: +*DP-1 1920/510x1080/287+0+0  DP-1"). */
export function parseMonitors(output: string): ScreenInfo[] {
  const screens: ScreenInfo[] = [];
  for (const line of output.split('\n')) {
    const match = MONITOR_LINE.exec(line);
    if (!match) continue;
    const [, index, primary, name, width, height, x, y] = match as unknown as string[];
    screens.push({
      index: Number(index),
      name: name!,
      primary: primary === '*',
      rect: { x: Number(x), y: Number(y), width: Number(width), height: Number(height) },
    });
  }
  return screens;
}

/** The screen holding `point` (a window's centre); the first screen when none does. */
export function screenAt(screens: readonly ScreenInfo[], point: Point): number {
  return screens.find((screen) => rectContains(screen.rect, point))?.index ?? screens[0]?.index ?? 0;
}
