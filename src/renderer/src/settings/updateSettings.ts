import type { SettingsPatch } from '../../../shared/settings';
import { useBannerStore } from '../app/bannerStore';
import { engine } from '../app/engine';
import { useSettingsStore } from './settingsStore';

/** Sends a partial patch; the engine validates and saves it, and its answer applies live. */
export async function updateSettings(patch: SettingsPatch): Promise<void> {
  const { settings } = await engine().request('settings.update', patch);
  useSettingsStore.getState().setSettings(settings);
  // The save wrote every key in its current spelling.
  useBannerStore.getState().dismiss('settings-notice');
}
