import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desktop, WindowInfo } from '../../../src/main/desktop/desktop';
import { chooseDesktop } from '../../../src/main/desktop/desktopChoice';
import { WindowExclusion } from '../../../src/main/desktop/privacy/windowExclusion';
import { X11Desktop } from '../../../src/main/desktop/x11/x11Desktop';
import { standInElectron, type StandInElectron } from '../../support/desktop/electronStandIn';
import { eventually, missingDesktopPrograms, startXvfb, type XvfbDisplay } from '../../support/desktop/xvfbDisplay';

// The desktop as the Electron app on Linux gets it: Electron (a stand-in at the edge) for
// Tandem's own window, a real X server (Xvfb) for everything else. An xterm plays the X
// window of Tandem's process (its pid is the stand-in's), an xmessage another application.

const missing = missingDesktopPrograms();

describe.skipIf(missing.length > 0)(`the Electron app's desktop on X11${missing.length > 0 ? ` (skipped: ${missing.join(', ')} not installed)` : ''}`, () => {
  let xvfb: XvfbDisplay;
  const programs: ChildProcess[] = [];
  let electron: StandInElectron;
  let desktop: Desktop;

  function run(command: string, args: string[]): ChildProcess & { exited: Promise<number | null> } {
    const child = spawn(command, args, { env: { ...process.env, DISPLAY: xvfb.display }, stdio: 'ignore' });
    programs.push(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return Object.assign(child, { exited });
  }

  const titled = (windows: WindowInfo[], title: string) => windows.find((window) => window.title === title);

  beforeAll(async () => {
    xvfb = await startXvfb(1280, 800);
    const ownWindow = run('xterm', ['-geometry', '40x5+10+10', '-T', 'Tandem (as X sees it)']);
    electron = standInElectron(1200, 780, 1);
    electron.pid = ownWindow.pid!;
    // Mapped, with its pid, before anything is asked: else "not listed" would prove nothing.
    const x11 = new X11Desktop(xvfb.display, new WindowExclusion());
    await eventually(async () => (await x11.listWindows()).find((window) => window.pid === ownWindow.pid), "the X window of Tandem's process");
    desktop = chooseDesktop({ platform: 'linux', env: { DISPLAY: xvfb.display }, exclusion: new WindowExclusion(), electron });
  });

  afterAll(async () => {
    for (const child of programs) if (child.exitCode === null) child.kill();
    await xvfb?.stop();
  });

  it("lists Tandem's window once, as 'tandem' (not under its X id), and not at all once it is closed", async () => {
    const dialog = run('xmessage', ['-fn', 'fixed', '-geometry', '+600+400', '-title', 'Other app', 'hello']);
    const windows = await eventually(async () => {
      const listed = await desktop.listWindows();
      return titled(listed, 'Other app') ? listed : undefined;
    }, 'the other application in the list');
    expect(windows.filter((window) => window.id === 'tandem')).toHaveLength(1);
    expect(titled(windows, 'Tandem (as X sees it)')).toBeUndefined();
    const current = electron.current;
    electron.current = undefined;
    try {
      const closed = await desktop.listWindows();
      expect(closed.map((window) => window.id)).not.toContain('tandem');
      expect(titled(closed, 'Tandem (as X sees it)')).toBeUndefined();
      expect(titled(closed, 'Other app')).toBeDefined();
    } finally {
      electron.current = current;
      dialog.kill();
    }
  });

  it('input for another application goes through X11: focusing a dialog and pressing Return presses its default button', async () => {
    const dialog = run('xmessage', ['-fn', 'fixed', '-geometry', '+600+400', '-title', 'Build failed', '-buttons', 'Retry:3,Cancel:4', '-default', 'Cancel', 'Build failed']);
    const window = await eventually(async () => titled(await desktop.listWindows(), 'Build failed'), 'the build-failed dialog');
    await desktop.act({ kind: 'focus_window', windowId: window.id });
    await desktop.act({ kind: 'key', keys: 'Return' }, 'desktop');
    expect(await dialog.exited).toBe(4);
    // Nothing of it went to Tandem's own window.
    expect(electron.current!.events).toEqual([]);
  });

  it("Tandem's window and its panes are still captured through Electron, input for it goes there", async () => {
    electron.current!.page.panes.set(1, { x: 0, y: 30, width: 700, height: 750 });
    const shot = await desktop.screenshot({ kind: 'pane', paneId: 1 });
    expect(shot.space.surface).toBe('tandem');
    expect(electron.current!.captured).toEqual([{ x: 0, y: 30, width: 700, height: 750 }]);
    await desktop.act({ kind: 'click', at: shot.space.toScreen({ x: 10, y: 10 }), button: 'left', count: 1 }, shot.space.surface);
    expect(electron.current!.events.map((event) => event.type)).toEqual(['mouseMove', 'mouseDown', 'mouseUp']);
  });
});
