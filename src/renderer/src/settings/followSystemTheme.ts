import { resolvedTheme, useSettingsStore } from './settingsStore';

/**
 * Tracks prefers-color-scheme live (for theme = 'system') and mirrors the resolved theme onto
 * <html data-theme> so the app chrome's CSS variables follow.
 */
export function followSystemTheme(): () => void {
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  const store = useSettingsStore.getState();
  store.setSystemPrefersDark(query.matches);
  const onChange = (event: MediaQueryListEvent) => useSettingsStore.getState().setSystemPrefersDark(event.matches);
  query.addEventListener('change', onChange);

  const applyToDocument = () => {
    document.documentElement.dataset.theme = resolvedTheme(useSettingsStore.getState());
  };
  applyToDocument();
  const unsubscribe = useSettingsStore.subscribe(applyToDocument);
  return () => {
    query.removeEventListener('change', onChange);
    unsubscribe();
  };
}
