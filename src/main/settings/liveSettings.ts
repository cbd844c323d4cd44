import { watch, type FSWatcher } from 'node:fs';
import { Emitter } from '../../shared/events';
import type { Settings, SettingsPatch } from '../../shared/settings';
import type { EngineLog } from '../log/engineLog';
import { loadSettings, updateSettings } from './configFile';
import type { TandemPaths } from './paths';

/**
 * The settings in effect: loaded from config.toml, changed from the settings dialog, and
 * reloaded live when the file is edited in an editor. A broken file is reported and the
 * settings in effect stay; the file is never rewritten because of it.
 */
export class LiveSettings {
  private value: Settings;
  private problem: string | undefined;
  private watcher: FSWatcher | undefined;
  private readonly changed = new Emitter<{ settings: Settings; error?: string }>();

  constructor(
    private readonly paths: TandemPaths,
    private readonly log: EngineLog,
  ) {
    const loaded = loadSettings(paths.configFile);
    this.value = loaded.settings;
    this.problem = loaded.error;
    if (loaded.error) log.warning('settings', loaded.error);
    this.watch();
  }

  get current(): Settings {
    return this.value;
  }

  /** Why config.toml could not be used, while that is so. */
  get error(): string | undefined {
    return this.problem;
  }

  /** config.toml was edited outside Tandem: the settings now in effect, and the file's problem if any. */
  get onChanged() {
    return this.changed.event;
  }

  /** A change from the settings dialog, written to config.toml. Throws with a readable message. */
  update(patch: SettingsPatch): Settings {
    this.value = updateSettings(this.paths.configFile, patch);
    this.problem = undefined;
    return this.value;
  }

  dispose(): void {
    this.watcher?.close();
    this.changed.dispose();
  }

  private watch(): void {
    try {
      this.watcher = watch(this.paths.configDir, (_event, file) => {
        if (file !== 'config.toml') return;
        const loaded = loadSettings(this.paths.configFile);
        this.problem = loaded.error;
        if (loaded.error) this.log.warning('settings', loaded.error);
        else this.value = loaded.settings;
        this.changed.fire({ settings: this.value, error: loaded.error });
      });
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      // No config directory yet: nothing to watch until the settings UI creates it.
    }
  }
}
