import { basename } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Emitter } from '../../shared/events';
import type { Settings, SettingsPatch } from '../../shared/settings';
import type { EngineLog } from '../log/engineLog';
import { loadSettings, updateSettings, type LoadedSettings } from './configFile';
import { FolderWatch } from './folderWatch';
import type { TandemPaths } from './paths';

/** What the settings UI is told when config.toml changed on disk. */
export interface SettingsChange {
  settings: Settings;
  /** Why the file cannot be used (the settings in effect stay). */
  error?: string;
  /** The file works but uses old spellings (and the like). */
  notice?: string;
}

/**
 * The settings in effect: loaded from config.toml, changed from the settings dialog, and
 * reloaded live when the file is edited in an editor — also when its folder did not exist
 * at start (Settings makes it on the first save) or is deleted and made again. A broken
 * file is reported and the settings in effect stay; the file is never rewritten because
 * of it.
 */
export class LiveSettings {
  private value: Settings;
  private problem: string | undefined;
  private hint: string | undefined;
  private readonly watch: FolderWatch;
  private readonly changed = new Emitter<SettingsChange>();

  constructor(
    private readonly paths: TandemPaths,
    private readonly log: EngineLog,
  ) {
    const loaded = loadSettings(paths.configFile);
    this.value = loaded.settings;
    this.problem = loaded.error;
    this.hint = loaded.notice;
    this.logProblems(loaded);
    const fileName = basename(paths.configFile);
    this.watch = new FolderWatch(paths.configDir, (file) => {
      if (file === undefined || file === fileName) this.reload();
    });
  }

  get current(): Settings {
    return this.value;
  }

  /** Why config.toml could not be used, while that is so. */
  get error(): string | undefined {
    return this.problem;
  }

  /** What config.toml says in a way on its way out (old key spellings), while that is so. */
  get notice(): string | undefined {
    return this.hint;
  }

  /** config.toml changed outside Tandem: the settings now in effect, and the file's problem if any. */
  get onChanged() {
    return this.changed.event;
  }

  /** A change from the settings dialog, written to config.toml. Throws with a readable message. */
  update(patch: SettingsPatch): Settings {
    this.value = updateSettings(this.paths.configFile, patch);
    this.problem = undefined;
    // Saving writes every key in its current spelling.
    this.hint = undefined;
    return this.value;
  }

  dispose(): void {
    this.watch.dispose();
    this.changed.dispose();
  }

  private reload(): void {
    const loaded = loadSettings(this.paths.configFile);
    const settings = loaded.error ? this.value : loaded.settings;
    if (isDeepStrictEqual(settings, this.value) && loaded.error === this.problem && loaded.notice === this.hint) return;
    this.value = settings;
    this.problem = loaded.error;
    this.hint = loaded.notice;
    this.logProblems(loaded);
    this.changed.fire({ settings: this.value, error: loaded.error, notice: loaded.notice });
  }

  private logProblems(loaded: LoadedSettings): void {
    if (loaded.error) this.log.warning('settings', `${this.paths.configFile} cannot be used: ${loaded.error}`);
    if (loaded.notice) this.log.warning('settings', `${this.paths.configFile}: ${loaded.notice}`);
  }
}
