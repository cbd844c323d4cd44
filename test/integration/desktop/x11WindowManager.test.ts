import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WindowInfo } from '../../../src/main/desktop/desktop';
import { WindowExclusion } from '../../../src/main/desktop/privacy/windowExclusion';
import { X11Desktop } from '../../../src/main/desktop/x11/x11Desktop';
import { decodePng } from '../../support/desktop/pngDecoding';
import { eventually, missingDesktopPrograms, startXvfb, type XvfbDisplay } from '../../support/desktop/xvfbDisplay';

const execFileAsync = promisify(execFile);
const missing = [...missingDesktopPrograms(), ...(spawnSync('sh', ['-c', 'command -v openbox && command -v wmctrl']).status === 0 ? [] : ['openbox or wmctrl'])];

/** The same desktop under a real EWMH window manager (openbox): client lists, frames, activation, polite close. */
describe.skipIf(missing.length > 0)(
  `X11 desktop under a window manager${missing.length > 0 ? ` (skipped: ${missing.join(', ')} not installed; .ci/run installs them)` : ''}`,
  () => {
    let xvfb: XvfbDisplay;
    let desktop: X11Desktop;
    const programs: ChildProcess[] = [];

    function run(command: string, args: string[]): ChildProcess & { exited: Promise<number | null> } {
      const child = spawn(command, args, { env: { ...process.env, DISPLAY: xvfb.display }, stdio: 'ignore' });
      programs.push(child);
      return Object.assign(child, { exited: new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))) });
    }

    /** The window once the window manager has framed it. */
    function framedWindow(title: string): Promise<WindowInfo> {
      return eventually(async () => {
        const window = (await desktop.listWindows()).find((candidate) => candidate.title === title);
        return window && window.frame.height > window.geometry.height ? window : undefined;
      }, `openbox to frame '${title}'`);
    }

    beforeAll(async () => {
      xvfb = await startXvfb(1920, 1080);
      desktop = new X11Desktop(xvfb.display, new WindowExclusion());
      run('openbox', ['--sm-disable']);
      // A window mapped while openbox is still starting can be left unmanaged (seen about once
      // in five runs beside other desktop tests): clients start once it has announced itself.
      await eventually(async () => {
        const root = await execFileAsync('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK'], { env: { ...process.env, DISPLAY: xvfb.display } }).catch(() => undefined);
        return root && /window id/.test(root.stdout) ? true : undefined;
      }, 'openbox to start');
    });

    afterAll(async () => {
      for (const child of programs) if (child.exitCode === null) child.kill();
      await xvfb?.stop();
    });

    it('lists client windows once, with the frame around them, and activates and closes them through the window manager', async () => {
      const dialog = run('xmessage', ['-geometry', '+700+500', '-title', 'Build failed', 'Build failed']);
      run('xterm', ['-geometry', '40x5+100+100', '-T', 'other terminal']);
      const window = await framedWindow('Build failed');
      const terminal = await framedWindow('other terminal');
      const windows = await desktop.listWindows();
      expect(windows.filter((candidate) => candidate.title === 'Build failed')).toHaveLength(1);
      expect(windows.every((candidate) => candidate.title !== '')).toBe(true);
      expect(window.geometry.y).toBeGreaterThan(window.frame.y);
      expect(window.geometry.x + window.geometry.width).toBeLessThanOrEqual(window.frame.x + window.frame.width);

      await desktop.act({ kind: 'focus_window', windowId: window.id });
      await eventually(async () => ((await desktop.listWindows()).find((candidate) => candidate.id === window.id)?.focused ? true : undefined), 'the dialog to be active');
      await desktop.act({ kind: 'focus_window', windowId: terminal.id });
      await eventually(async () => ((await desktop.listWindows()).find((candidate) => candidate.id === terminal.id)?.focused ? true : undefined), 'the terminal to be active');

      await desktop.act({ kind: 'close_window', windowId: window.id });
      await dialog.exited;
      expect((await desktop.listWindows()).some((candidate) => candidate.id === window.id)).toBe(false);
    });

    it('blacks out an excluded window with its frame (the title bar shows its title)', async () => {
      run('xmessage', ['-geometry', '+300+600', '-title', 'vault - KeePassXC', 'hunter2 hunter2']);
      const secret = await framedWindow('vault - KeePassXC');
      expect(secret.excluded).toBe(true);
      const shot = await desktop.screenshot({ kind: 'screen' });
      const png = decodePng(shot.png);
      const area = shot.space.rectToImage(secret.frame);
      let bright = 0;
      for (let y = area.y + 1; y < area.y + area.height - 1; y++) {
        for (let x = area.x + 1; x < area.x + area.width - 1; x++) if (png.data[(y * png.width + x) * 4]! > 32) bright++;
      }
      expect(bright).toBe(0);
      expect(shot.blackedOut).toBe(1);
    });
  },
);
