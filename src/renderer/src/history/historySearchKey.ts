import { setUserChord } from '../actions/keybindings';
import { useSettingsStore } from '../settings/settingsStore';

/** `[history] search_key` in config.toml replaces Ctrl+Shift+R, live as the file changes. */
export function followHistorySearchKey(): () => void {
  const apply = () => setUserChord('history.search', useSettingsStore.getState().settings.history.search_key || undefined);
  apply();
  return useSettingsStore.subscribe(apply);
}
