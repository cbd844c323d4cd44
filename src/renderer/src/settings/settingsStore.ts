import { create } from 'zustand';
import { DEFAULT_SETTINGS, SETTING_LIMITS, type Settings } from '../../../shared/settings';

export type ResolvedTheme = 'dark' | 'light';

interface SettingsState {
  settings: Settings;
  configPath: string;
  /** The shell given on the engine's command line (`--shell`), which wins over `shell.path`; '' when none. */
  shellOverride: string;
  /** Font size steps from Ctrl+= / Ctrl+-; a per-window view preference, not saved. */
  zoomSteps: number;
  systemPrefersDark: boolean;
  setSettings(settings: Settings): void;
  setConfigPath(configPath: string): void;
  setShellOverride(shellOverride: string): void;
  zoom(step: number): void;
  resetZoom(): void;
  setSystemPrefersDark(dark: boolean): void;
}

const { min: MIN_FONT_SIZE, max: MAX_FONT_SIZE } = SETTING_LIMITS.fontSize;

export const useSettingsStore = create<SettingsState>()((set) => ({
  settings: DEFAULT_SETTINGS,
  configPath: '',
  shellOverride: '',
  zoomSteps: 0,
  systemPrefersDark: true,
  setSettings: (settings) => set({ settings }),
  setConfigPath: (configPath) => set({ configPath }),
  setShellOverride: (shellOverride) => set({ shellOverride }),
  zoom: (step) =>
    set((state) => {
      const base = state.settings.terminal.font_size;
      const size = Math.min(MAX_FONT_SIZE, Math.max(MIN_FONT_SIZE, base + state.zoomSteps + step));
      return { zoomSteps: size - base };
    }),
  resetZoom: () => set({ zoomSteps: 0 }),
  setSystemPrefersDark: (systemPrefersDark) => set({ systemPrefersDark }),
}));

export function effectiveFontSize(state: Pick<SettingsState, 'settings' | 'zoomSteps'>): number {
  return Math.min(MAX_FONT_SIZE, Math.max(MIN_FONT_SIZE, state.settings.terminal.font_size + state.zoomSteps));
}

export function resolvedTheme(state: Pick<SettingsState, 'settings' | 'systemPrefersDark'>): ResolvedTheme {
  const theme = state.settings.terminal.theme;
  if (theme === 'system') return state.systemPrefersDark ? 'dark' : 'light';
  return theme;
}
