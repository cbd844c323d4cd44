import { beforeEach, describe, expect, it } from 'vitest';
import { chooseDesktop } from '../../../src/main/desktop/desktopChoice';
import { ElectronDesktop } from '../../../src/main/desktop/electron/electronDesktop';
import { paneQuery } from '../../../src/main/desktop/electron/paneLocation';
import { WindowExclusion } from '../../../src/main/desktop/privacy/windowExclusion';
import { decodePng } from '../../support/desktop/pngDecoding';
import { standInElectron, standInWindow, StandInImage, type StandInElectron, type StandInWindow } from '../../support/desktop/electronStandIn';

// Panes of Tandem's window as capture targets, and the window the desktop follows when the
// user closes it and opens another: the Electron implementation against a stand-in for
// Electron's API, whose page really runs the query the desktop sends it.

const size = (png: Buffer) => {
  const decoded = decodePng(png);
  return [decoded.width, decoded.height];
};

const click = { kind: 'click', at: { x: 5, y: 5 }, button: 'left', count: 1 } as const;

describe("a pane of Tandem's window", () => {
  let electron: StandInElectron;
  let window: StandInWindow;
  let desktop: ElectronDesktop;
  beforeEach(() => {
    electron = standInElectron(1200, 800, 2);
    window = electron.current!;
    // Two panes side by side under a 30 px tab bar; pane 5 sits in a background tab.
    window.page.panes.set(2, { x: 0, y: 30, width: 599, height: 770 });
    window.page.panes.set(3, { x: 601, y: 30, width: 599, height: 770 });
    window.page.panes.set(5, { x: 0, y: 0, width: 0, height: 0 });
    desktop = new ElectronDesktop(electron, new WindowExclusion(), 50);
  });

  it('is captured where the page draws it, at its DIP size, in the window\'s space', async () => {
    const shot = await desktop.screenshot({ kind: 'pane', paneId: 3 });
    expect(window.captured).toEqual([{ x: 601, y: 30, width: 599, height: 770 }]);
    expect(size(shot.png)).toEqual([599, 770]);
    expect(shot.space.surface).toBe('tandem');
    // A point the model names in the pane's image is a point of the window (sendInputEvent's space).
    expect(shot.space.toScreen({ x: 10, y: 10 })).toEqual({ x: 611, y: 40 });
    expect(shot.description).toBe("pane 3 in Tandem's window (599×770 at 601,30 of its content)");
  });

  it("asks the page in a world of its own, neither the page's (0) nor the preload's (999)", async () => {
    await desktop.screenshot({ kind: 'pane', paneId: 2 });
    expect(window.page.worlds).toHaveLength(1);
    expect(window.page.worlds[0]).not.toBe(0);
    expect(window.page.worlds[0]).not.toBe(999);
  });

  it("turns the page's CSS pixels into DIPs at the page's zoom, rounding outwards", async () => {
    window.zoomFactor = 1.25;
    window.page.panes.set(2, { x: 10.5, y: 20.2, width: 100, height: 50 });
    await desktop.screenshot({ kind: 'pane', paneId: 2 });
    // 10.5..110.5 × 20.2..70.2 CSS px are 13.125..138.125 × 25.25..87.75 DIPs.
    expect(window.captured).toEqual([{ x: 13, y: 25, width: 126, height: 63 }]);
  });

  it('is clipped to the window where it reaches past it', async () => {
    window.page.panes.set(2, { x: 900, y: 700, width: 600, height: 400 });
    const shot = await desktop.screenshot({ kind: 'pane', paneId: 2 });
    expect(window.captured).toEqual([{ x: 900, y: 700, width: 300, height: 100 }]);
    expect(size(shot.png)).toEqual([300, 100]);
  });

  it('that is not in the page, or not shown (background tab), is refused in words', async () => {
    await expect(desktop.screenshot({ kind: 'pane', paneId: 9 })).rejects.toMatchObject({ code: 'not_found', message: "pane 9 is not in Tandem's window" });
    await expect(desktop.screenshot({ kind: 'pane', paneId: 5 })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('its tab is not the active one') });
    expect(window.captured).toEqual([]);
  });

  it('is given up on when the page does not answer, or answers nonsense', async () => {
    window.page.silent = true;
    await expect(desktop.screenshot({ kind: 'pane', paneId: 2 })).rejects.toMatchObject({
      code: 'failed',
      message: "The place of pane 2 in Tandem's window did not come within 50 ms (is Tandem's window reloading?)",
    });
    window.webContents.executeJavaScriptInIsolatedWorld = async () => ({ x: 'left', y: 0, width: 10, height: 10 });
    await expect(desktop.screenshot({ kind: 'pane', paneId: 2 })).rejects.toMatchObject({ code: 'failed', message: expect.stringContaining('no usable place') });
    expect(window.captured).toEqual([]);
  });

  it('a capture that never comes is given up on, so the look step ends', async () => {
    window.webContents.capturePage = () => new Promise(() => undefined);
    await expect(desktop.screenshot({ kind: 'pane', paneId: 2 })).rejects.toMatchObject({ code: 'failed', message: expect.stringContaining("A capture of Tandem's window did not come within 50 ms") });
    await expect(desktop.screenshot({ kind: 'window', windowId: 'tandem' })).rejects.toMatchObject({ code: 'failed' });
  });

  it('only ever puts a whole pane id into the page query', () => {
    expect(paneQuery(12)).toContain('[data-testid="pane"][data-pane-id="12"]');
    for (const id of [1.5, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => paneQuery(id)).toThrow(/not a pane id/);
  });
});

describe("Tandem's window closed and opened again", () => {
  let electron: StandInElectron;
  let desktop: ElectronDesktop;
  beforeEach(() => {
    electron = standInElectron(1200, 800, 1);
    desktop = new ElectronDesktop(electron, new WindowExclusion());
  });

  it('while no window is open, its captures and input are refused in words, and the window list is empty', async () => {
    const closed = electron.current!;
    closed.close(); // destroyed, before the app drops its reference
    for (const window of [closed, undefined]) {
      electron.current = window;
      await expect(desktop.screenshot({ kind: 'tandem' })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining("Tandem's window is not open") });
      await expect(desktop.screenshot({ kind: 'pane', paneId: 1 })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining("Tandem's window is not open") });
      await expect(desktop.readText({ kind: 'window', windowId: 'tandem' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(desktop.act(click, 'tandem')).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('sent input') });
      await expect(desktop.act({ kind: 'focus_window', windowId: 'tandem' })).rejects.toMatchObject({ code: 'not_found' });
      expect(await desktop.listWindows()).toEqual([]);
    }
    expect(closed.captured).toEqual([]);
    expect(closed.events).toEqual([]);
    expect(closed.focused).toBe(0);
  });

  it('what does not need the window still works while it is closed: screens, clipboard, notifications', async () => {
    electron.current = undefined;
    electron.sources = [{ id: 'screen:7:0', name: 'Entire screen', display_id: '7', thumbnail: new StandInImage(1280, 720) }];
    expect(size((await desktop.screenshot({ kind: 'screen' })).png)).toEqual([1280, 720]);
    await desktop.writeClipboard('still here');
    expect(await desktop.readClipboard()).toBe('still here');
    await desktop.notify({ title: 'Tandem', body: 'closed' });
    expect(electron.notifications).toEqual(['Tandem: closed']);
  });

  it('the reopened window is the one captured and sent input, with its own size and panes', async () => {
    const first = electron.current!;
    first.close();
    const reopened = standInWindow(800, 600, 1);
    reopened.page.panes.set(1, { x: 0, y: 30, width: 800, height: 570 });
    electron.current = reopened;
    expect(size((await desktop.screenshot({ kind: 'tandem' })).png)).toEqual([800, 600]);
    expect(size((await desktop.screenshot({ kind: 'pane', paneId: 1 })).png)).toEqual([800, 570]);
    await desktop.act(click, 'tandem');
    expect((await desktop.listWindows())[0]?.geometry).toEqual({ x: 100, y: 50, width: 800, height: 600 });
    expect(reopened.captured).toEqual([{ x: 0, y: 0, width: 800, height: 600 }, { x: 0, y: 30, width: 800, height: 570 }]);
    expect(reopened.events.map((event) => event.type)).toEqual(['mouseMove', 'mouseDown', 'mouseUp']);
    expect(first.captured).toEqual([]);
    expect(first.events).toEqual([]);
  });
});

describe('which implementation captures a pane', () => {
  const exclusion = new WindowExclusion();

  it('in the Electron app on X11, Electron does (X11 cannot know where the page draws it)', async () => {
    const electron = standInElectron(1200, 800, 1);
    electron.current!.page.panes.set(4, { x: 0, y: 30, width: 1200, height: 770 });
    // A display nobody serves: had X11 been asked, the capture would fail.
    const desktop = chooseDesktop({ platform: 'linux', env: { DISPLAY: ':4095' }, exclusion, electron });
    const shot = await desktop.screenshot({ kind: 'pane', paneId: 4 });
    expect(size(shot.png)).toEqual([1200, 770]);
    expect(shot.space.surface).toBe('tandem');
  });

  it('in browser mode, with or without a display, it is refused saying a page cannot capture itself', async () => {
    for (const env of [{ DISPLAY: ':4095' }, {}]) {
      const desktop = chooseDesktop({ platform: 'linux', env, exclusion });
      await expect(desktop.screenshot({ kind: 'pane', paneId: 1 })).rejects.toMatchObject({
        code: 'unavailable',
        message: expect.stringContaining('a page in a browser (browser mode) cannot capture itself'),
      });
    }
  });
});
