import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HelloResult } from '../../src/shared/protocol';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import { importRendererModule } from './support/rendererModule';

type ApplyHelloModule = typeof import('../../src/renderer/src/session/applyHello');
type BannerStoreModule = typeof import('../../src/renderer/src/app/bannerStore');

let applyHello: ApplyHelloModule['applyHello'];
let useBannerStore: BannerStoreModule['useBannerStore'];

beforeAll(async () => {
  vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
  vi.stubGlobal('navigator', { platform: 'Linux x86_64' });
  ({ applyHello } = await importRendererModule<ApplyHelloModule>('session/applyHello.ts'));
  ({ useBannerStore } = await importRendererModule<BannerStoreModule>('app/bannerStore.ts'));
});

afterAll(() => vi.unstubAllGlobals());

beforeEach(() => useBannerStore.setState({ banners: [] }));

function hello(overrides: Partial<HelloResult> = {}): HelloResult {
  return { version: '0.1.0', platform: 'linux', settings: DEFAULT_SETTINGS, configPath: '/home/u/.config/tandem/config.toml', livePanes: [], ...overrides };
}

const SANDBOX_OFF = { key: 'sandbox-off', message: 'The OS sandbox is off.', detail: 'Start Tandem without --no-sandbox to turn it back on.' };
const GPU_OFF = { key: 'gpu-off', message: 'Hardware acceleration is off.' };

const shown = () => useBannerStore.getState().banners.map((banner) => banner.key);

describe("the host's warnings on hello", () => {
  it('become one dismissible warning banner each, with their detail', () => {
    applyHello(hello({ hostWarnings: [SANDBOX_OFF, GPU_OFF] }));
    expect(useBannerStore.getState().banners).toEqual([
      { key: 'sandbox-off', level: 'warning', message: SANDBOX_OFF.message, detail: SANDBOX_OFF.detail, dismissible: true },
      { key: 'gpu-off', level: 'warning', message: GPU_OFF.message, detail: undefined, dismissible: true },
    ]);
  });

  it('a dismissed one goes away; the next hello that still carries it shows it again', () => {
    applyHello(hello({ hostWarnings: [SANDBOX_OFF] }));
    useBannerStore.getState().dismiss('sandbox-off');
    expect(shown()).toEqual([]);
    applyHello(hello({ hostWarnings: [SANDBOX_OFF] }));
    expect(shown()).toEqual(['sandbox-off']);
  });

  it('the next hello takes down the warnings it no longer has, and leaves other banners alone', () => {
    useBannerStore.getState().show({ key: 'pane-failure', level: 'error', message: 'Could not open a new tab', dismissible: true });
    applyHello(hello({ hostWarnings: [SANDBOX_OFF, GPU_OFF] }));
    expect(shown()).toEqual(['pane-failure', 'sandbox-off', 'gpu-off']);
    applyHello(hello({ hostWarnings: [GPU_OFF] }));
    expect(shown()).toEqual(['pane-failure', 'gpu-off']);
    // A hello without the field (an older engine, browser mode) has no warnings.
    applyHello(hello());
    expect(shown()).toEqual(['pane-failure']);
  });

  it('sit beside the settings and policy banners, which also go once fixed', () => {
    applyHello(hello({ settingsError: 'line 3: expected "="', policyProblems: ['policy.toml: bad rule'], hostWarnings: [SANDBOX_OFF] }));
    expect(shown()).toEqual(['settings-error', 'policy-error', 'sandbox-off']);
    applyHello(hello({ hostWarnings: [SANDBOX_OFF] }));
    expect(shown()).toEqual(['sandbox-off']);
  });
});

describe('the config.toml banners on hello', () => {
  const message = (key: string) => useBannerStore.getState().banners.find((banner) => banner.key === key)?.message;

  it('name the file once: the error comes without it, the banner adds it', () => {
    applyHello(hello({ settingsError: 'not valid TOML: unclosed quote on line 2' }));
    expect(message('settings-error')).toBe('Could not use /home/u/.config/tandem/config.toml: not valid TOML: unclosed quote on line 2');
  });

  it('show old key spellings as a notice of their own, beside an error if there is one, and take it down once gone', () => {
    const notice = 'old key spelling terminal.fontSize → font_size still works but will not forever; keys are snake_case now (saving from Settings rewrites them)';
    applyHello(hello({ settingsNotice: notice }));
    expect(useBannerStore.getState().banners).toEqual([{ key: 'settings-notice', level: 'info', message: `/home/u/.config/tandem/config.toml: ${notice}`, dismissible: true }]);
    applyHello(hello());
    expect(shown()).toEqual([]);
  });

  it('a saved session that cannot be read has its own banner, not the config file’s', () => {
    applyHello(hello({ sessionError: 'The saved session in /s/session.json has an unknown format; starting fresh.' }));
    expect(shown()).toEqual(['session-error']);
    expect(message('session-error')).toBe('The saved session in /s/session.json has an unknown format; starting fresh.');
  });
});
