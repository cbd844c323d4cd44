import { decodePng } from '../../support/desktop/pngDecoding';
import { beforeEach, describe, expect, it } from 'vitest';
import { chooseDesktop } from '../../../src/main/desktop/desktopChoice';
import { DesktopError } from '../../../src/main/desktop/desktopError';
import { ElectronDesktop } from '../../../src/main/desktop/electron/electronDesktop';
import { WindowExclusion } from '../../../src/main/desktop/privacy/windowExclusion';
import { standInElectron, StandInImage, type StandInElectron, type StandInWindow } from '../../support/desktop/electronStandIn';

const size = (png: Buffer) => {
  const decoded = decodePng(png);
  return [decoded.width, decoded.height];
};

describe('Electron desktop (against a stand-in for Electron)', () => {
  let electron: StandInElectron;
  let window: StandInWindow;
  let desktop: ElectronDesktop;
  beforeEach(() => {
    electron = standInElectron();
    window = electron.current!;
    desktop = new ElectronDesktop(electron, new WindowExclusion());
  });

  it("captures Tandem's window at its DIP size (capturePage gives device pixels) in the 'tandem' surface", async () => {
    const shot = await desktop.screenshot({ kind: 'tandem' });
    expect(window.captured).toEqual([{ x: 0, y: 0, width: 1200, height: 800 }]);
    expect(size(shot.png)).toEqual([1200, 800]);
    expect(shot.space.surface).toBe('tandem');
    expect(shot.space.scaled).toBe(false);
  });

  it('captures a pane (an area of the window) and maps its image back to window coordinates', async () => {
    const shot = await desktop.screenshot({ kind: 'tandem', rect: { x: 600, y: 0, width: 600, height: 800 } });
    expect(window.captured).toEqual([{ x: 600, y: 0, width: 600, height: 800 }]);
    expect(size(shot.png)).toEqual([600, 800]);
    expect(shot.space.toScreen({ x: 10, y: 10 })).toEqual({ x: 610, y: 10 });
    await expect(desktop.screenshot({ kind: 'tandem', rect: { x: 5000, y: 0, width: 10, height: 10 } })).rejects.toMatchObject({ code: 'outside' });
  });

  it('scales a large window so the long side is 1280', async () => {
    desktop = new ElectronDesktop(standInElectron(2560, 1440, 1), new WindowExclusion());
    const shot = await desktop.screenshot({ kind: 'window', windowId: 'tandem' });
    expect(size(shot.png)).toEqual([1280, 720]);
    // Image pixel 640 covers window pixels 1280–1281: the click goes to the centre of that span.
    expect(shot.space.toScreen({ x: 640, y: 360 })).toEqual({ x: 1281, y: 721 });
  });

  it('sends clicks, double clicks, scrolls, text and chords to the window through sendInputEvent', async () => {
    await desktop.act({ kind: 'click', at: { x: 10.4, y: 20.6 }, button: 'left', count: 2 }, 'tandem');
    expect(window.events).toEqual([
      { type: 'mouseMove', x: 10, y: 21 },
      { type: 'mouseDown', x: 10, y: 21, button: 'left', clickCount: 1 },
      { type: 'mouseUp', x: 10, y: 21, button: 'left', clickCount: 1 },
      { type: 'mouseDown', x: 10, y: 21, button: 'left', clickCount: 2 },
      { type: 'mouseUp', x: 10, y: 21, button: 'left', clickCount: 2 },
    ]);
    window.events.length = 0;
    await desktop.act({ kind: 'type', text: 'ls\n' }, 'tandem');
    await desktop.act({ kind: 'key', keys: 'ctrl+shift+t Escape' }, 'tandem');
    await desktop.act({ kind: 'scroll', at: { x: 5, y: 5 }, down: 3, right: 0 }, 'tandem');
    expect(window.events).toEqual([
      { type: 'char', keyCode: 'l' },
      { type: 'char', keyCode: 's' },
      { type: 'keyDown', keyCode: 'Enter', modifiers: [] },
      { type: 'keyUp', keyCode: 'Enter', modifiers: [] },
      { type: 'keyDown', keyCode: 'T', modifiers: ['control', 'shift'] },
      { type: 'keyUp', keyCode: 'T', modifiers: ['control', 'shift'] },
      { type: 'keyDown', keyCode: 'Escape', modifiers: [] },
      { type: 'keyUp', keyCode: 'Escape', modifiers: [] },
      { type: 'mouseMove', x: 5, y: 5 },
      { type: 'mouseWheel', x: 5, y: 5, deltaX: -0, deltaY: -300, wheelTicksX: -0, wheelTicksY: -3 },
    ]);
  });

  it("refuses input for other applications and window management other than focusing Tandem's window", async () => {
    await expect(desktop.act({ kind: 'click', at: { x: 1, y: 1 }, button: 'left', count: 1 }, 'desktop')).rejects.toMatchObject({ code: 'unavailable' });
    await expect(desktop.act({ kind: 'close_window', windowId: 'tandem' })).rejects.toMatchObject({ code: 'invalid' });
    await expect(desktop.act({ kind: 'focus_window', windowId: '0x2a00007' })).rejects.toMatchObject({ code: 'unavailable' });
    await expect(desktop.act({ kind: 'key', keys: 'hyper+x' }, 'tandem')).rejects.toMatchObject({ code: 'invalid' });
    await desktop.act({ kind: 'focus_window', windowId: 'tandem' });
    expect(window.focused).toBe(1);
    expect(window.events).toEqual([]);
  });

  it('captures a screen through desktopCapturer, and refuses while an excluded window is open', async () => {
    electron.sources = [
      { id: 'screen:7:0', name: 'Entire screen', display_id: '7', thumbnail: new StandInImage(1280, 720) },
      { id: 'window:42:0', name: 'notes - vim', display_id: '', thumbnail: new StandInImage(10, 10) },
    ];
    const shot = await desktop.screenshot({ kind: 'screen' });
    expect(size(shot.png)).toEqual([1280, 720]);
    expect(shot.space.source).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
    electron.sources.push({ id: 'window:43:0', name: 'passwords.kdbx - KeePassXC', display_id: '', thumbnail: new StandInImage(10, 10) });
    await expect(desktop.screenshot({ kind: 'screen' })).rejects.toMatchObject({ code: 'excluded' });
    await expect(desktop.screenshot({ kind: 'screen', screen: 3 })).rejects.toMatchObject({ code: 'not_found' });
  });

  it("lists Tandem's window, and does the clipboard and notifications", async () => {
    expect(await desktop.listWindows()).toEqual([
      expect.objectContaining({ id: 'tandem', title: 'Tandem', pid: 4321, focused: true, visible: true, screen: 0, geometry: { x: 100, y: 50, width: 1200, height: 800 } }),
    ]);
    await desktop.writeClipboard('copied ✓');
    expect(await desktop.readClipboard()).toBe('copied ✓');
    await desktop.notify({ title: 'Build', body: 'done' });
    expect(electron.notifications).toEqual(['Build: done']);
  });
});

describe('choosing the desktop at run time', () => {
  const exclusion = new WindowExclusion();

  it('says clearly why there is none, per system, and every request fails with that reason instead of crashing', async () => {
    const cases: [NodeJS.Platform, NodeJS.ProcessEnv, RegExp][] = [
      ['linux', {}, /DISPLAY is not set/],
      ['linux', { WAYLAND_DISPLAY: 'wayland-0' }, /Wayland without X/],
      ['darwin', {}, /macOS/],
      ['win32', { DISPLAY: ':0' }, /Windows/],
    ];
    for (const [platform, env, reason] of cases) {
      const desktop = chooseDesktop({ platform, env, exclusion });
      const availability = await desktop.availability();
      expect(availability.available).toBe(false);
      expect(availability.available === false && availability.reason).toMatch(reason);
      const error = await desktop.screenshot({ kind: 'screen' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DesktopError);
      expect(error).toMatchObject({ code: 'unavailable', message: expect.stringMatching(reason) });
      await expect(desktop.act({ kind: 'type', text: 'x' })).rejects.toMatchObject({ code: 'unavailable' });
    }
  });

  it("uses Electron for Tandem's window and says what else is missing when there is no X11", async () => {
    const electron = standInElectron();
    const desktop = chooseDesktop({ platform: 'darwin', env: {}, exclusion, electron });
    // (`lacking.ocr` too where Tesseract is not installed.)
    expect(await desktop.availability()).toMatchObject({ available: true, implementation: expect.stringMatching(/^Electron \(Tandem's window only; macOS/), screenInput: false });
    expect(size((await desktop.screenshot({ kind: 'tandem' })).png)).toEqual([1200, 800]);
    await expect(desktop.screenshot({ kind: 'window', windowId: '0x2a00007' })).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/macOS/) });
    await expect(desktop.act({ kind: 'click', at: { x: 1, y: 1 }, button: 'left', count: 1 })).rejects.toMatchObject({ code: 'unavailable' });
    await desktop.act({ kind: 'click', at: { x: 1, y: 1 }, button: 'left', count: 1 }, 'tandem');
    expect(electron.current!.events.length).toBe(3);
    expect((await desktop.listWindows()).map((window) => window.id)).toEqual(['tandem']);
  });

  it("in browser mode on X11, Tandem's own window is not capturable through Electron, and says so", async () => {
    const desktop = chooseDesktop({ platform: 'linux', env: { DISPLAY: ':4095' }, exclusion });
    await expect(desktop.screenshot({ kind: 'tandem' })).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/through Electron/) });
  });
});

describe('Electron desktop: an interrupted request', () => {
  it('stops once a capture Electron cannot cut short returns: a screenshot or OCR of the window, a screen', async () => {
    const electron = standInElectron();
    const window = electron.current!;
    const desktop = new ElectronDesktop(electron, new WindowExclusion());
    let abort = new AbortController();
    const capturePage = window.webContents.capturePage;
    // The user interrupts while Electron captures.
    window.webContents.capturePage = async (rect) => {
      abort.abort();
      return capturePage(rect);
    };
    electron.desktopCapturer.getSources = async () => {
      abort.abort();
      return [];
    };
    for (const request of [
      (signal: AbortSignal) => desktop.screenshot({ kind: 'tandem' }, signal),
      (signal: AbortSignal) => desktop.readText({ kind: 'tandem' }, signal),
      (signal: AbortSignal) => desktop.screenshot({ kind: 'screen' }, signal),
    ]) {
      abort = new AbortController();
      await expect(request(abort.signal)).rejects.toMatchObject({ code: 'interrupted' });
    }
  });
});
