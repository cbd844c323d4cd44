import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { parse, stringify } from 'smol-toml';
import { DEFAULT_SETTINGS, SettingsSchema, type Settings, type SettingsPatch } from '../../shared/settings';
import { writeFileAtomic } from './atomicWrite';
import { describeIssues, firstLine } from './validationMessages';

export interface LoadedSettings {
  settings: Settings;
  /** Why the file could not be used; the defaults are in effect and the file is untouched. */
  error?: string;
}

export function loadSettings(path: string): LoadedSettings {
  if (!existsSync(path)) return { settings: DEFAULT_SETTINGS };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { settings: DEFAULT_SETTINGS, error: `${path} could not be read: ${(error as Error).message}` };
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    return { settings: DEFAULT_SETTINGS, error: `${path} is not valid TOML: ${firstLine((error as Error).message)}` };
  }
  const result = SettingsSchema.safeParse(data);
  if (!result.success) {
    return { settings: DEFAULT_SETTINGS, error: `${path}: ${describeIssues(result.error)}` };
  }
  return { settings: result.data };
}

/**
 * Applies a patch from the settings UI and writes config.toml. Refuses (throws) when the
 * file on disk is currently invalid, so a typo the user is fixing is never overwritten.
 */
export function updateSettings(path: string, patch: SettingsPatch): Settings {
  const current = loadSettings(path);
  if (current.error) throw new Error(`Not saving: ${current.error}. Fix the file first; it was left as it is.`);
  // A config.toml that is a symlink (dotfile managers) is updated where it points, keeping its mode.
  const target = existsSync(path) ? realpathSync(path) : path;
  const mode = existsSync(target) ? statSync(target).mode & 0o777 : 0o600;
  const onDisk: Record<string, unknown> = existsSync(target) ? (parse(readFileSync(target, 'utf8')) as Record<string, unknown>) : {};
  for (const [section, values] of Object.entries(patch)) {
    if (!values) continue;
    const existing = (onDisk[section] as Record<string, unknown> | undefined) ?? {};
    const changed = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
    onDisk[section] = { ...existing, ...changed };
  }
  const settings = SettingsSchema.parse(onDisk);
  writeFileAtomic(target, `# Tandem settings. See docs/configuration.md.\n${stringify(onDisk)}\n`, mode);
  return settings;
}
