import { effectiveFontSize, resolvedTheme, useSettingsStore } from '../settings/settingsStore';
import type { TerminalAppearance } from './PaneSession';
import { paneSessions } from './paneSessions';

export function currentAppearance(): TerminalAppearance {
  const state = useSettingsStore.getState();
  const terminal = state.settings.terminal;
  return {
    fontFamily: terminal.fontFamily,
    fontSize: effectiveFontSize(state),
    scrollback: terminal.scrollback,
    cursorBlink: terminal.cursorBlink,
    webgl: terminal.webgl,
    copyOnSelect: terminal.copyOnSelect,
    theme: resolvedTheme(state),
  };
}

/** Settings, zoom and the system theme apply live to every open pane. */
export function applyAppearanceLive(): () => void {
  return useSettingsStore.subscribe(() => {
    const appearance = currentAppearance();
    for (const session of paneSessions.all()) session.applyAppearance(appearance);
  });
}
