import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScreenshotView } from '../../src/shared/screenSteps';
import { ScreenshotMemory, sameSpace, targetKey, type LastLook } from '../../src/main/agent/vision/screenshotMemory';
import { isTerminalWindow } from '../../src/main/agent/vision/terminalWindows';
import { uiDescription } from '../../src/main/agent/vision/uiDescription';
import { scrollWords, uiCommand, type UiRequest } from '../../src/main/agent/vision/uiRequest';
import type { ScreenshotTarget } from '../../src/main/agent/vision/visionRequest';
import type { OcrWord, WindowInfo } from '../../src/main/desktop/desktop';
import { ScreenshotSpace } from '../../src/main/desktop/screenshotSpace';

// The pieces UI steps are made of: what the model last saw of each target, a UI action in
// words, its line on the card, and which windows are terminals.

const TARGETS: ScreenshotTarget[] = [
  { kind: 'screen' },
  { kind: 'screen', screen: 1 },
  { kind: 'pane' },
  { kind: 'pane', paneId: 2 },
  { kind: 'window', windowId: '0x2a00007' },
  { kind: 'window', windowId: '0x1400002' },
  { kind: 'region', rect: { x: 0, y: 0, width: 100, height: 50 } },
  { kind: 'region', rect: { x: 10, y: 10, width: 100, height: 50 } },
];
const SPACES = [
  ScreenshotSpace.forCapture({ x: 0, y: 0, width: 1920, height: 1080 }),
  ScreenshotSpace.forCapture({ x: 0, y: 0, width: 800, height: 600 }),
  ScreenshotSpace.forCapture({ x: 0, y: 0, width: 800, height: 600 }, 'tandem'),
];

describe('ScreenshotMemory', () => {
  const look = fc.record({
    target: fc.nat(TARGETS.length - 1),
    space: fc.nat(SPACES.length - 1),
    screenshot: fc.boolean(),
    words: fc.boolean(),
  });

  it('always answers with the last look at a target, at whatever was looked at last, and at the last region; an image and words of the same area belong together', () => {
    fc.assert(
      fc.property(fc.array(look, { maxLength: 25 }), (looks) => {
        const memory = new ScreenshotMemory();
        // The model: every look in order, with what it carried.
        const seen: { target: ScreenshotTarget; space: ScreenshotSpace; area: number; screenshot?: ScreenshotView; words?: OcrWord[] }[] = [];
        looks.forEach((step, index) => {
          const target = TARGETS[step.target]!;
          const space = SPACES[step.space]!;
          const screenshot = step.screenshot ? { id: `shot-${index}`, width: space.imageWidth, height: space.imageHeight, description: '' } : undefined;
          const words = step.words ? [{ text: `w${index}`, box: { x: 0, y: 0, width: 1, height: 1 }, confidence: 90, line: 0 }] : undefined;
          memory.remember(target, space, `look ${index}`, { screenshot, words });
          seen.push({ target, space, area: step.space, screenshot, words });
        });
        const expectedFor = (key: string): Partial<LastLook> | undefined => {
          const mine = seen.filter((entry) => targetKey(entry.target) === key);
          const last = mine.at(-1);
          if (!last) return undefined;
          // Back through the looks at this target in the same area (until another area) for the last image and words;
          // the SPACES all differ (the last two only in their surface).
          let screenshot: ScreenshotView | undefined;
          let words: OcrWord[] | undefined;
          for (let i = mine.length - 1; i >= 0 && mine[i]!.area === last.area; i--) {
            screenshot ??= mine[i]!.screenshot;
            words ??= mine[i]!.words;
          }
          return { target: last.target, space: last.space, screenshot, words };
        };
        for (const target of TARGETS) {
          const answer = memory.last(target);
          const expected = expectedFor(targetKey(target));
          if (!expected) expect(answer).toBeUndefined();
          else expect(answer).toMatchObject({ ...expected, screenshot: expected.screenshot, words: expected.words });
        }
        const latest = seen.at(-1);
        expect(memory.last()?.target).toEqual(latest?.target);
        expect(memory.last()?.description).toBe(latest ? `look ${seen.length - 1}` : undefined);
        const lastRegion = seen.filter((entry) => entry.target.kind === 'region').at(-1);
        expect(memory.last({ kind: 'region' })?.target).toEqual(lastRegion?.target);
        memory.clear();
        expect(memory.last()).toBeUndefined();
        for (const target of TARGETS) expect(memory.last(target)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('sameSpace: the same area captured at the same size on the same surface', () => {
    expect(sameSpace(SPACES[1]!, ScreenshotSpace.forCapture({ x: 0, y: 0, width: 800, height: 600 }))).toBe(true);
    expect(sameSpace(SPACES[1]!, SPACES[2]!)).toBe(false);
    expect(sameSpace(SPACES[1]!, ScreenshotSpace.forCapture({ x: 1, y: 0, width: 800, height: 600 }))).toBe(false);
    expect(sameSpace(SPACES[1]!, ScreenshotSpace.forCapture({ x: 0, y: 0, width: 800, height: 600 }, 'desktop', 400))).toBe(false);
  });

  it('names a window the same in any case and with spaces around its id', () => {
    const memory = new ScreenshotMemory();
    memory.remember({ kind: 'window', windowId: ' 0x2A00007 ' }, SPACES[1]!, 'w', {});
    expect(memory.last({ kind: 'window', windowId: '0x2a00007' })?.description).toBe('w');
    // Unnamed and named screens and panes are different targets.
    memory.remember({ kind: 'screen' }, SPACES[0]!, 's', {});
    expect(memory.last({ kind: 'screen', screen: 0 })).toBeUndefined();
  });
});

describe('isTerminalWindow', () => {
  it.each([
    ['XTerm', 'xterm'],
    ['URxvt', 'urxvt'],
    ['Gnome-terminal', 'gnome-terminal-server'],
    ['konsole', 'konsole'],
    ['Alacritty', 'Alacritty'],
    ['kitty', 'kitty'],
    ['org.wezfurlong.wezterm', 'org.wezfurlong.wezterm'],
    ['Tandem', 'tandem'],
    ['com.mitchellh.ghostty', 'com.mitchellh.ghostty'],
    ['Something', ' xterm '],
  ])('%s / %s is a terminal', (application, instance) => {
    expect(isTerminalWindow({ application, instance, title: 'a title' })).toBe(true);
  });

  it.each([
    ['XMessage', 'xmessage'],
    ['firefox', 'Navigator'],
    ['Code', 'code'],
    ['Gedit', 'gedit'],
    ['', ''],
    ['XTermLike', 'xterm-ish'],
  ])('%s / %s is not', (application, instance) => {
    expect(isTerminalWindow({ application, instance, title: 'xterm' })).toBe(false);
  });
});

describe('a UI action in words (uiDescription)', () => {
  const installer: WindowInfo = {
    id: '0x2a00007',
    title: 'Installer',
    application: 'XMessage',
    instance: 'xmessage',
    geometry: { x: 0, y: 0, width: 1, height: 1 },
    frame: { x: 0, y: 0, width: 1, height: 1 },
    focused: true,
    visible: true,
    screen: 0,
    excluded: false,
  };
  const request = (fields: Partial<UiRequest> & Pick<UiRequest, 'action'>): UiRequest => ({ via: 'ui_action', ...fields });

  it.each([
    [request({ action: 'click', at: { x: 412, y: 300 } }), { window: installer, label: 'Retry' }, "click at 412,300 on 'Retry' in window 'Installer' (XMessage)"],
    [request({ action: 'double_click', at: { x: 1, y: 2 } }), { target: 'the screen' }, 'double-click at 1,2 in the screenshot of the screen'],
    [request({ action: 'triple_click', at: { x: 1, y: 2 } }), {}, 'triple-click at 1,2'],
    [request({ action: 'right_click', at: { x: 1, y: 2 } }), { window: { ...installer, application: 'Installer' } }, "right-click at 1,2 in window 'Installer'"],
    [request({ action: 'middle_click', at: { x: 1, y: 2 } }), { window: installer }, "middle-click (pastes the selection) at 1,2 in window 'Installer' (XMessage)"],
    [request({ action: 'move', at: { x: 1, y: 2 } }), {}, 'move the pointer to 1,2'],
    [
      request({ action: 'drag', at: { x: 1, y: 2 }, to: { x: 3, y: 4 } }),
      { window: installer, dropWindow: { ...installer, id: '0x9', title: 'bash', application: 'XTerm' } },
      "drag from 1,2 to 3,4 in window 'Installer' (XMessage) onto window 'bash' (XTerm)",
    ],
    [request({ action: 'drag', at: { x: 1, y: 2 }, to: { x: 3, y: 4 } }), { window: installer, dropWindow: installer }, "drag from 1,2 to 3,4 in window 'Installer' (XMessage)"],
    [request({ action: 'scroll', at: { x: 1, y: 2 }, scroll: { down: -2, right: 1 } }), {}, 'scroll 2 up, 1 right at 1,2'],
    [request({ action: 'type', text: 'a "b"' }), { window: installer }, `type "a \\"b\\"" into window 'Installer' (XMessage)`],
    [request({ action: 'type', text: 'x' }), {}, 'type "x" into the focused window'],
    [request({ action: 'key', keys: 'ctrl+s' }), {}, 'press ctrl+s in the focused window'],
    [request({ action: 'focus_window', windowId: '0x5' }), {}, 'focus window 0x5'],
    [request({ action: 'raise_window', windowId: '0x5' }), { window: { ...installer, title: '' } }, "raise window '0x2a00007' (XMessage)"],
    [request({ action: 'move_window', windowId: '0x5', at: { x: 10, y: 20 } }), {}, 'move window 0x5 to 10,20 (screen pixels)'],
    [request({ action: 'resize_window', windowId: '0x5', width: 640, height: 480 }), {}, 'resize window 0x5 to 640×480'],
    [request({ action: 'close_window', windowId: '0x5' }), { window: installer }, "close window 'Installer' (XMessage)"],
    [request({ action: 'read_clipboard' }), {}, 'read the clipboard (its text goes to the model, secrets redacted)'],
    [request({ action: 'write_clipboard', text: 'hi' }), {}, 'put "hi" on the clipboard'],
    [request({ action: 'notify', title: 'Build', text: 'done' }), {}, 'show the desktop notification "Build": "done"'],
    [request({ action: 'notify', title: 'Build' }), {}, 'show the desktop notification "Build"'],
    [request({ action: 'wait', seconds: 2 }), {}, 'wait 2 s'],
    [request({ action: 'cursor_position' }), {}, 'ask where the pointer is'],
  ])('%j', (ui, context, words) => {
    expect(uiDescription(ui, context)).toBe(words);
  });

  it('text with a line break stays on one line (the card and the audit log)', () => {
    expect(uiDescription(request({ action: 'type', text: 'ls\nrm -rf /' }), {})).not.toContain('\n');
  });
});

describe("a UI step's line (uiCommand)", () => {
  it.each([
    [{ action: 'click', at: { x: 1, y: 2 } }, 'ui_action click 1,2'],
    [{ action: 'cursor_position' }, 'ui_action cursor_position'],
    [{ action: 'key', keys: 'alt+F4' }, 'ui_action key alt+F4'],
    [{ action: 'write_clipboard', text: 'x' }, 'ui_action write_clipboard "x"'],
    [{ action: 'notify', title: 'T' }, 'ui_action notify "T"'],
    [{ action: 'wait' }, 'ui_action wait 1s'],
    [{ action: 'move_window', windowId: '0x1', at: { x: 5, y: 6 } }, 'ui_action move_window 0x1 to 5,6'],
    [{ action: 'focus_window', windowId: '0x1' }, 'ui_action focus_window 0x1'],
  ] as [Pick<UiRequest, 'action'> & Partial<UiRequest>, string][])('%j → %s', (fields, line) => {
    expect(uiCommand({ via: 'ui_action', ...fields })).toBe(line);
  });

  it('is one line whatever the text', () => {
    fc.assert(
      fc.property(fc.constantFrom('type', 'write_clipboard', 'notify', 'key'), fc.string({ maxLength: 200 }), (action, text) => {
        const line = uiCommand({ via: 'computer', action: action as UiRequest['action'], text, title: text, keys: text.replace(/\s/g, '') });
        expect(line).not.toMatch(/[\n\r]/);
        expect(line.startsWith(`computer ${action}`)).toBe(true);
      }),
    );
  });

  it('scrollWords says how far and which way', () => {
    expect(scrollWords({ down: 3, right: 0 })).toBe('3 down');
    expect(scrollWords({ down: 0, right: -2 })).toBe('2 left');
    expect(scrollWords({ down: 0, right: 0 })).toBe('not at all');
    expect(scrollWords(undefined)).toBe('not at all');
  });
});
