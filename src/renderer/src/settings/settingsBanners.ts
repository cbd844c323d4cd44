import { useBannerStore } from '../app/bannerStore';

/**
 * The banners about config.toml: why it cannot be used (the file named once, here), and a
 * notice when it works but uses old key spellings. Either is taken down once its cause is gone.
 */
export function showSettingsBanners(configPath: string, problems: { error?: string; notice?: string }, whatHappens: string): void {
  const banners = useBannerStore.getState();
  const file = configPath || 'your config file';
  if (problems.error) {
    banners.show({ key: 'settings-error', level: 'warning', message: `Could not use ${file}: ${problems.error}`, detail: whatHappens, dismissible: true });
  } else {
    banners.dismiss('settings-error');
  }
  if (problems.notice) {
    banners.show({ key: 'settings-notice', level: 'info', message: `${file}: ${problems.notice}`, dismissible: true });
  } else {
    banners.dismiss('settings-notice');
  }
}
