import { effectiveFontSize, resolvedTheme, useSettingsStore } from '../settings/settingsStore';
import type { TerminalAppearance } from './paneAppearance';
import { paneSessions } from './paneSessions';

export function currentAppearance(): TerminalAppearance {
  const state = useSettingsStore.getState();
  const terminal = state.settings.terminal;
  return {
    fontFamily: terminal.font_family,
    fontSize: effectiveFontSize(state),
    scrollback: terminal.scrollback,
    cursorBlink: terminal.cursor_blink,
    webgl: terminal.webgl,
    copyOnSelect: terminal.copy_on_select,
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
