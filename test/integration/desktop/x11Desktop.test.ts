import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePng } from '../../support/desktop/pngDecoding';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WindowInfo } from '../../../src/main/desktop/desktop';
import type { Rect } from '../../../src/main/desktop/geometry';
import { DesktopError } from '../../../src/main/desktop/desktopError';
import { WindowExclusion } from '../../../src/main/desktop/privacy/windowExclusion';
import { pathWithout } from '../../support/desktop/pathWithout';
import { X11Desktop } from '../../../src/main/desktop/x11/x11Desktop';
import { eventually, missingDesktopPrograms, startXvfb, type XvfbDisplay } from '../../support/desktop/xvfbDisplay';

const missing = missingDesktopPrograms();

describe.skipIf(missing.length > 0)(
  `X11 desktop under Xvfb${missing.length > 0 ? ` (skipped: ${missing.join(', ')} not installed; .ci/run installs them)` : ''}`,
  () => {
    let xvfb: XvfbDisplay;
    let desktop: X11Desktop;
    let scratch: string;
    const programs: ChildProcess[] = [];

    function run(command: string, args: string[]): ChildProcess & { exited: Promise<number | null> } {
      const child = spawn(command, args, { env: { ...process.env, DISPLAY: xvfb.display }, stdio: 'ignore' });
      programs.push(child);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      return Object.assign(child, { exited });
    }

    function windowTitled(title: string): Promise<WindowInfo> {
      return eventually(async () => (await desktop.listWindows()).find((window) => window.title === title), `a window titled '${title}'`);
    }

    beforeAll(async () => {
      xvfb = await startXvfb(1920, 1080);
      desktop = new X11Desktop(xvfb.display, new WindowExclusion());
      scratch = mkdtempSync(join(tmpdir(), 'tandem-desktop-'));
    });

    afterAll(async () => {
      for (const child of programs) if (child.exitCode === null) child.kill();
      await xvfb?.stop();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    });

    it('is available on an X display', async () => {
      expect(await desktop.availability()).toEqual({ available: true, implementation: `X11 (${xvfb.display})`, screenInput: true });
    });

    it('without xdotool and Tesseract it still captures and lists windows, and says what is missing for input and OCR', async () => {
      const lacking = pathWithout(['xdotool', 'tesseract']);
      let dialog: ChildProcess | undefined;
      try {
        const partial = new X11Desktop(xvfb.display, new WindowExclusion(), lacking.path);
        expect(await partial.availability()).toEqual({
          available: true,
          implementation: `X11 (${xvfb.display})`,
          screenInput: false,
          lacking: { input: expect.stringContaining('install the xdotool package'), ocr: expect.stringContaining('install the tesseract-ocr') },
        });
        dialog = run('xmessage', ['-geometry', '+50+50', '-title', 'no xdotool', 'still listed']);
        await eventually(async () => (await partial.listWindows()).find((window) => window.title === 'no xdotool'), 'the dialog listed without xdotool');
        expect((await partial.screenshot({ kind: 'screen' })).space.imageWidth).toBe(1280);
        await expect(partial.readText({ kind: 'screen' })).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('Tesseract') });
        await expect(partial.act({ kind: 'click', at: { x: 10, y: 10 }, button: 'left', count: 1 })).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('xdotool') });
      } finally {
        dialog?.kill();
        lacking.remove();
      }
    });

    it('lists the build-failed dialog, screenshots it at its size and reads its text; a click on the OCR box of Cancel (1920×1080 screen, 1280×720 image) makes xmessage exit 4', async () => {
      // The font is pinned to X's own `fixed`: with Type 1 fonts installed (fonts-urw-base35
      // comes with Ghostscript) xmessage's font set picks a URW font, whose rounded buttons
      // Tesseract does not read at all (docs/desktop.md, OCR).
      const dialog = run('xmessage', ['-fn', 'fixed', '-xrm', '*international: false', '-geometry', '+700+500', '-title', 'Build failed', '-buttons', 'Retry:3,Cancel:4', 'Build failed']);
      const window = await windowTitled('Build failed');
      // xmessage (Athena) sets no _NET_WM_PID; xterm does, checked below.
      expect(window).toMatchObject({ application: 'Xmessage', instance: 'xmessage', visible: true, excluded: false, screen: 0 });
      expect(window.geometry).toMatchObject({ x: 700, y: 500 });

      const shot = await desktop.screenshot({ kind: 'window', windowId: window.id });
      const png = decodePng(shot.png);
      expect([png.width, png.height]).toEqual([window.frame.width, window.frame.height]);
      expect(shot.space.scaled).toBe(false);
      // The window is listed as soon as it is mapped, maybe before xmessage has drawn it.
      await eventually(async () => ((await desktop.readText({ kind: 'window', windowId: window.id })).text.includes('Build failed') ? true : undefined), "OCR of the dialog to read 'Build failed'");

      const screenText = await desktop.readText({ kind: 'screen' });
      expect([screenText.space.imageWidth, screenText.space.imageHeight]).toEqual([1280, 720]);
      const cancel = screenText.words.find((word) => word.text === 'Cancel');
      expect(cancel, `OCR words: ${screenText.text}`).toBeDefined();
      const inImage = { x: cancel!.box.x + cancel!.box.width / 2, y: cancel!.box.y + cancel!.box.height / 2 };
      const onScreen = screenText.space.toScreen(inImage);
      expect(onScreen.x).toBeGreaterThan(700);
      await desktop.act({ kind: 'click', at: onScreen, button: 'left', count: 1 });
      expect(await dialog.exited).toBe(4);
    });

    it('reads "Ok" and "Cancel" on an xmessage dialog in its own font, from the 1920×1080 screen and from the window, each box inside its button', async () => {
      const dialog = run('xmessage', ['-geometry', '+900+500', '-title', 'Save changes', '-buttons', 'Ok,Cancel', 'Save changes?']);
      const window = await windowTitled('Save changes');
      // The buttons are X windows of their own (Athena Command widgets): the two of equal height on one row.
      const tree = spawnSync('xwininfo', ['-tree', '-id', window.id], { env: { ...process.env, DISPLAY: xvfb.display }, encoding: 'utf8' }).stdout;
      const children = [...tree.matchAll(/\s(\d+)x(\d+)\+-?\d+\+-?\d+\s+\+(-?\d+)\+(-?\d+)/g)].map(([, width, height, x, y]) => ({ x: Number(x), y: Number(y), width: Number(width), height: Number(height) }));
      const [ok, cancel] = children.filter((child) => child.y > window.geometry.y + 20 && child.height < 40).sort((a, b) => a.x - b.x);
      expect(cancel, tree).toBeDefined();
      const inside = (button: Rect, box: Rect) => box.x >= button.x - 1 && box.y >= button.y - 1 && box.x + box.width <= button.x + button.width + 1 && box.y + box.height <= button.y + button.height + 1;
      await eventually(async () => ((await desktop.readText({ kind: 'window', windowId: window.id })).text.includes('changes') ? true : undefined), 'the dialog drawn');
      for (const target of [{ kind: 'screen' as const }, { kind: 'window' as const, windowId: window.id }]) {
        const read = await desktop.readText(target);
        const onScreen = (text: string) => {
          const word = read.words.find((candidate) => candidate.text === text);
          expect(word, `${text} in the OCR of the ${target.kind}: ${read.text}`).toBeDefined();
          return read.space.rectToScreen(word!.box);
        };
        expect(inside(ok!, onScreen('Ok')), `Ok's box ${JSON.stringify(onScreen('Ok'))} in ${JSON.stringify(ok)}`).toBe(true);
        expect(inside(cancel!, onScreen('Cancel')), `Cancel's box ${JSON.stringify(onScreen('Cancel'))} in ${JSON.stringify(cancel)}`).toBe(true);
      }
      dialog.kill();
    });

    it('a screenshot of the whole screen is a 1280×720 PNG', async () => {
      const shot = await desktop.screenshot({ kind: 'screen' });
      const png = decodePng(shot.png);
      expect([png.width, png.height]).toEqual([1280, 720]);
      expect(shot.space.source).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
      // An independent decoder agrees: ImageMagick reads a valid 1280×720 PNG.
      const identify = spawnSync('identify', ['-format', '%m %wx%h', 'png:-'], { input: shot.png });
      expect(identify.stdout.toString()).toBe('PNG 1280x720');
    });

    it('types into an xterm running cat > file, and presses keys', async () => {
      const file = join(scratch, 'typed.txt');
      const terminal = run('xterm', ['-geometry', '60x8+100+100', '-T', 'typing target', '-e', 'sh', '-c', `cat > '${file}'`]);
      const window = await windowTitled('typing target');
      expect(window).toMatchObject({ application: 'XTerm', pid: terminal.pid });
      await desktop.act({ kind: 'focus_window', windowId: window.id });
      await desktop.act({ kind: 'type', text: 'hello from Tandem: $HOME "quoted" ~!\n' });
      await desktop.act({ kind: 'key', keys: 'ctrl+d' });
      expect(await terminal.exited).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe('hello from Tandem: $HOME "quoted" ~!\n');
    });

    it('typing stops soon after its signal is aborted, between two runs of characters (no key is left held down), and the call says it was interrupted', async () => {
      const file = join(scratch, 'interrupted.txt');
      const terminal = run('xterm', ['-geometry', '60x8+100+400', '-T', 'slow typing', '-e', 'sh', '-c', `cat > '${file}'`]);
      const window = await windowTitled('slow typing');
      await desktop.act({ kind: 'focus_window', windowId: window.id });
      const abort = new AbortController();
      const long = 'typed line\n'.repeat(500); // 5,500 characters: 44 s at xdotool's 8 ms a character
      const typing = desktop.act({ kind: 'type', text: long }, 'desktop', abort.signal);
      // cat writes each line as it ends: once the file grows, typing has begun.
      await eventually(async () => (existsSync(file) && readFileSync(file, 'utf8').length > 0 ? true : undefined), 'the first typed line');
      const started = Date.now();
      abort.abort();
      await expect(typing).rejects.toMatchObject({ code: 'interrupted' });
      expect(Date.now() - started).toBeLessThan(5_000);
      await desktop.act({ kind: 'key', keys: 'Return ctrl+d' });
      expect(await terminal.exited).toBe(0);
      // What was typed is the start of the text, and nothing more: no key kept repeating.
      const typed = readFileSync(file, 'utf8').replace(/\n$/, '');
      expect(typed.length).toBeLessThan(long.length);
      expect(long.startsWith(typed)).toBe(true);
    });

    it('blacks out an excluded window in a screen capture and refuses it as a target', async () => {
      run('xmessage', ['-geometry', '+200+600', '-title', 'passwords.kdbx - KeePassXC', '-name', 'keepassxc', 'hunter2 hunter2 hunter2']);
      run('xmessage', ['-geometry', '+1200+600', '-title', 'harmless', 'nothing secret here at all']);
      const secret = await windowTitled('passwords.kdbx - KeePassXC');
      const harmless = await windowTitled('harmless');
      expect(secret.excluded).toBe(true);
      expect(harmless.excluded).toBe(false);

      const shot = await desktop.screenshot({ kind: 'screen' });
      expect(shot.blackedOut).toBe(1);
      const png = decodePng(shot.png);
      const brightPixels = (rect: WindowInfo['frame']): number => {
        const area = shot.space.rectToImage(rect);
        let bright = 0;
        for (let y = area.y + 1; y < area.y + area.height - 1; y++) {
          for (let x = area.x + 1; x < area.x + area.width - 1; x++) if (png.data[(y * png.width + x) * 4]! > 32) bright++;
        }
        return bright;
      };
      expect(brightPixels(secret.frame)).toBe(0);
      expect(brightPixels(harmless.frame)).toBeGreaterThan(100);
      expect((await desktop.readText({ kind: 'screen' })).text).not.toContain('hunter2');

      await expect(desktop.screenshot({ kind: 'window', windowId: secret.id })).rejects.toMatchObject({ code: 'excluded' });
      const centre = { x: secret.frame.x + secret.frame.width / 2, y: secret.frame.y + secret.frame.height / 2 };
      await expect(desktop.act({ kind: 'click', at: centre, button: 'left', count: 1 })).rejects.toBeInstanceOf(DesktopError);
      await expect(desktop.act({ kind: 'close_window', windowId: secret.id })).rejects.toMatchObject({ code: 'excluded' });
    });

    it('right-clicks, double-clicks, scrolls and drags where it is told (as xev sees it), and moves, resizes and closes a window', async () => {
      const watcher = spawn('xev', ['-geometry', '400x300+1000+100', '-name', 'input-watcher', '-event', 'button'], {
        env: { ...process.env, DISPLAY: xvfb.display },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      programs.push(watcher);
      let seen = '';
      watcher.stdout.on('data', (chunk: Buffer) => (seen += chunk.toString()));
      const events = () =>
        [...seen.matchAll(/(ButtonPress|ButtonRelease) event.*?\n.*?root:\((\d+),(\d+)\).*?\n.*?button (\d+)/gs)].map(
          ([, type, x, y, button]) => `${type === 'ButtonPress' ? 'press' : 'release'} ${button} at ${x},${y}`,
        );
      const window = await windowTitled('input-watcher');
      expect(window.geometry).toMatchObject({ x: 1000, y: 100, width: 400, height: 300 });

      await desktop.act({ kind: 'click', at: { x: 1100, y: 150 }, button: 'right', count: 1 });
      await desktop.act({ kind: 'click', at: { x: 1110, y: 160 }, button: 'left', count: 2 });
      await desktop.act({ kind: 'scroll', at: { x: 1120, y: 170 }, down: 2, right: 0 });
      await desktop.act({ kind: 'drag', from: { x: 1050, y: 200 }, to: { x: 1300, y: 350 }, button: 'left' });
      const expected = [
        'press 3 at 1100,150',
        'release 3 at 1100,150',
        'press 1 at 1110,160',
        'release 1 at 1110,160',
        'press 1 at 1110,160',
        'release 1 at 1110,160',
        'press 5 at 1120,170',
        'release 5 at 1120,170',
        'press 5 at 1120,170',
        'release 5 at 1120,170',
        'press 1 at 1050,200',
        'release 1 at 1300,350',
      ];
      await eventually(async () => (events().length >= expected.length ? true : undefined), 'xev to print every button event');
      expect(events()).toEqual(expected);

      await desktop.act({ kind: 'move_window', windowId: window.id, to: { x: 200, y: 250 } });
      await desktop.act({ kind: 'resize_window', windowId: window.id, width: 320, height: 240 });
      const moved = await eventually(async () => {
        const current = (await desktop.listWindows()).find((candidate) => candidate.id === window.id);
        return current?.geometry.x === 200 && current.geometry.width === 320 ? current : undefined;
      }, 'the window to move and resize');
      expect(moved.geometry).toEqual({ x: 200, y: 250, width: 320, height: 240 });

      await desktop.act({ kind: 'close_window', windowId: window.id });
      await eventually(async () => (watcher.exitCode !== null || watcher.signalCode !== null ? true : undefined), 'xev to go with its window');
      expect((await desktop.listWindows()).some((candidate) => candidate.id === window.id)).toBe(false);
    });

    it('round-trips text through the clipboard', async () => {
      await desktop.writeClipboard('Tandem ✓ clipboard\nsecond line');
      expect(await desktop.readClipboard()).toBe('Tandem ✓ clipboard\nsecond line');
    });

    it.skipIf(Boolean(process.env.DBUS_SESSION_BUS_ADDRESS))('says why a notification could not be shown when no notification daemon runs (skipped inside a desktop session, which may have one)', async () => {
      const error = await desktop.notify({ title: 'Build', body: 'failed' }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(DesktopError);
      expect(error).toMatchObject({ code: expect.stringMatching(/^(failed|unavailable)$/), message: expect.stringMatching(/notify-send/) });
    });

    it('reports a display it cannot open as unavailable, with the reason', async () => {
      const nowhere = new X11Desktop(':4095', new WindowExclusion());
      const availability = await nowhere.availability();
      expect(availability.available).toBe(false);
      expect(availability.available === false && availability.reason).toMatch(/cannot open the X display :4095/);
    });
  },
);
