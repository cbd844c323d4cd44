import type { HelloResult, HostWarning } from '../../../shared/protocol';
import { useBannerStore } from '../app/bannerStore';
import { useCompanionStore } from '../companion/companionStore';
import { useHostStore } from '../app/hostStore';
import { showSettingsBanners } from '../settings/settingsBanners';
import { useSettingsStore } from '../settings/settingsStore';

/** Banner keys the last hello's host warnings showed, so the next hello can take back the ones it no longer has. */
const hostWarningKeys = new Set<string>();

/**
 * What every hello tells the page besides its panes: the settings in effect, and the banners
 * that go with it (an unusable config.toml, policy.toml or saved session, the host's warnings). A banner
 * whose cause is gone by the next hello is taken down.
 */
export function applyHello(hello: HelloResult): void {
  const settings = useSettingsStore.getState();
  settings.setSettings(hello.settings);
  settings.setConfigPath(hello.configPath);
  settings.setShellOverride(hello.shellOverride ?? '');
  useHostStore.getState().setHome(hello.home ?? '');
  showSettingsBanners(hello.configPath, { error: hello.settingsError, notice: hello.settingsNotice }, 'Using defaults; your file was not changed.');
  const banners = useBannerStore.getState();
  if (hello.sessionError) {
    banners.show({ key: 'session-error', level: 'warning', message: hello.sessionError, dismissible: true });
  } else {
    banners.dismiss('session-error');
  }
  const [policyProblem] = hello.policyProblems ?? [];
  if (policyProblem) {
    banners.show({
      key: 'policy-error',
      level: 'warning',
      message: `The agent's policy cannot be used: ${policyProblem}`,
      detail: 'Every step the agent proposes asks you until the file is fixed.',
      dismissible: true,
    });
  } else {
    banners.dismiss('policy-error');
  }
  showHostWarnings(hello.hostWarnings ?? []);
  const companion = useCompanionStore.getState();
  companion.clear();
  for (const hint of hello.companionHints ?? []) companion.setHint(hint.paneId, hint);
}

/**
 * The host's warnings (e.g. the Electron entry running without the OS sandbox), one
 * dismissible banner each under the warning's own key. Shown again on every hello that still
 * carries them, like the settings and policy banners.
 */
function showHostWarnings(warnings: HostWarning[]): void {
  const banners = useBannerStore.getState();
  const current = new Set(warnings.map((warning) => warning.key));
  for (const key of hostWarningKeys) {
    if (!current.has(key)) banners.dismiss(key);
  }
  hostWarningKeys.clear();
  for (const warning of warnings) {
    hostWarningKeys.add(warning.key);
    banners.show({ key: warning.key, level: 'warning', message: warning.message, detail: warning.detail, dismissible: true });
  }
}
