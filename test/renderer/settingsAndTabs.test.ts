import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SETTING_LIMITS, type Settings } from '../../src/shared/settings';
import { fuzzyScore } from '../../src/renderer/src/actions/fuzzyMatch';
import { useLayoutStore } from '../../src/renderer/src/layout/layoutStore';
import { paneLeaf, panesOf } from '../../src/renderer/src/layout/layoutTree';
import { basename, tabTitle } from '../../src/renderer/src/layout/tabTitle';
import {
  effectiveFontSize,
  resolvedTheme,
  useSettingsStore,
} from '../../src/renderer/src/settings/settingsStore';
import type { PaneMeta } from '../../src/renderer/src/terminal/panesStore';

function withTerminal(terminal: Partial<Settings['terminal']>): Settings {
  return { ...DEFAULT_SETTINGS, terminal: { ...DEFAULT_SETTINGS.terminal, ...terminal } };
}

describe('settings defaults', () => {
  it('scrollback 10,000 lines, theme follows the system, WebGL on, font size 14', () => {
    expect(DEFAULT_SETTINGS.terminal).toMatchObject({ scrollback: 10_000, theme: 'system', webgl: true, font_size: 14 });
  });
});

describe('font zoom', () => {
  beforeEach(() => useSettingsStore.setState({ settings: DEFAULT_SETTINGS, zoomSteps: 0 }));

  it('steps from the configured size and resets to it', () => {
    const store = useSettingsStore.getState();
    store.zoom(1);
    store.zoom(1);
    expect(effectiveFontSize(useSettingsStore.getState())).toBe(16);
    store.zoom(-3);
    expect(effectiveFontSize(useSettingsStore.getState())).toBe(13);
    store.resetZoom();
    expect(effectiveFontSize(useSettingsStore.getState())).toBe(14);
  });

  it('stays within the allowed sizes, and undoing from a limit takes effect at once', () => {
    // The bounds are the schema's own, read off it.
    expect(SETTING_LIMITS.fontSize).toEqual({ min: 6, max: 72 });
    const { min: MIN_FONT_SIZE, max: MAX_FONT_SIZE } = SETTING_LIMITS.fontSize;
    const store = useSettingsStore.getState();
    for (let i = 0; i < 100; i++) store.zoom(1);
    expect(effectiveFontSize(useSettingsStore.getState())).toBe(MAX_FONT_SIZE);
    store.zoom(-1);
    expect(effectiveFontSize(useSettingsStore.getState())).toBe(MAX_FONT_SIZE - 1);
    for (let i = 0; i < 100; i++) store.zoom(-1);
    expect(effectiveFontSize(useSettingsStore.getState())).toBe(MIN_FONT_SIZE);
    store.zoom(1);
    expect(effectiveFontSize(useSettingsStore.getState())).toBe(MIN_FONT_SIZE + 1);
  });

  it('keeps the zoom relative when the configured size changes', () => {
    useSettingsStore.getState().zoom(2);
    useSettingsStore.getState().setSettings(withTerminal({ font_size: 20 }));
    expect(effectiveFontSize(useSettingsStore.getState())).toBe(22);
  });
});

describe('theme', () => {
  it('"system" follows the OS preference; dark and light are fixed', () => {
    expect(resolvedTheme({ settings: withTerminal({ theme: 'system' }), systemPrefersDark: true })).toBe('dark');
    expect(resolvedTheme({ settings: withTerminal({ theme: 'system' }), systemPrefersDark: false })).toBe('light');
    expect(resolvedTheme({ settings: withTerminal({ theme: 'light' }), systemPrefersDark: true })).toBe('light');
    expect(resolvedTheme({ settings: withTerminal({ theme: 'dark' }), systemPrefersDark: false })).toBe('dark');
  });
});

describe('palette matching', () => {
  it('finds actions by word starts and ranks the better match first', () => {
    expect(fuzzyScore('spr', 'Split Pane Right')).toBeDefined();
    expect(fuzzyScore('xyz', 'Split Pane Right')).toBeUndefined();
    expect(fuzzyScore('', 'anything')).toBe(0);
    const titles = ['Split Pane Down', 'Split Pane Right', 'Previous Tab', 'Reset Zoom'];
    const ranked = titles
      .map((title) => ({ title, score: fuzzyScore('split right', title) }))
      .filter((entry) => entry.score !== undefined)
      .sort((a, b) => b.score! - a.score!);
    expect(ranked[0]?.title).toBe('Split Pane Right');
  });
});

describe('tabs', () => {
  beforeEach(() => useLayoutStore.getState().clear());

  it('closing the last pane of a tab closes the tab and activates a neighbour', () => {
    const layout = useLayoutStore.getState();
    const first = layout.addTab(paneLeaf(1));
    const second = layout.addTab(paneLeaf(2));
    expect(useLayoutStore.getState().activeTabId).toBe(second);
    useLayoutStore.getState().splitPane(2, 'row', 3);
    let tab = useLayoutStore.getState().tabs[1]!;
    expect(panesOf(tab.root)).toEqual([2, 3]);
    expect(tab.focusedPaneId).toBe(3);

    useLayoutStore.getState().removePane(3);
    tab = useLayoutStore.getState().tabs[1]!;
    expect(tab.root).toEqual(paneLeaf(2));
    expect(tab.focusedPaneId).toBe(2);

    useLayoutStore.getState().removePane(2);
    expect(useLayoutStore.getState().tabs.map((each) => each.id)).toEqual([first]);
    expect(useLayoutStore.getState().activeTabId).toBe(first);
    useLayoutStore.getState().removePane(1);
    expect(useLayoutStore.getState().tabs).toEqual([]);
    expect(useLayoutStore.getState().activeTabId).toBeUndefined();
  });

  it('switches tabs cyclically and focusing a pane activates its tab', () => {
    const layout = useLayoutStore.getState();
    const a = layout.addTab(paneLeaf(1));
    const b = layout.addTab(paneLeaf(2));
    const c = layout.addTab(paneLeaf(3), { activate: false });
    expect(useLayoutStore.getState().activeTabId).toBe(b);
    useLayoutStore.getState().activateRelative(1);
    expect(useLayoutStore.getState().activeTabId).toBe(c);
    useLayoutStore.getState().activateRelative(1);
    expect(useLayoutStore.getState().activeTabId).toBe(a);
    useLayoutStore.getState().activateRelative(-1);
    expect(useLayoutStore.getState().activeTabId).toBe(c);
    useLayoutStore.getState().focusPane(2);
    expect(useLayoutStore.getState().activeTabId).toBe(b);
  });

  it('are named after the focused pane directory', () => {
    const pane = (paneId: number, cwd: string): PaneMeta => ({ paneId, cwd, shell: '/bin/bash', shellName: 'bash', integration: true, state: 'PROMPT', notices: [] });
    const tab = { id: 't', root: paneLeaf(1), focusedPaneId: 1 };
    expect(tabTitle(tab, { 1: pane(1, '/home/me/project') })).toBe('project');
    expect(tabTitle(tab, { 1: pane(1, '/') })).toBe('/');
    expect(tabTitle(tab, { 1: pane(1, '') })).toBe('bash');
    expect(tabTitle({ ...tab, restoredTitle: 'old' }, {})).toBe('old');
    expect(basename('/usr/share/')).toBe('share');
    expect(basename('C:\\Users\\me')).toBe('me');
  });
});
