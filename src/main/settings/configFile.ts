import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { parse, stringify } from 'smol-toml';
import { DEFAULT_SETTINGS, SettingsSchema, type Settings, type SettingsPatch } from '../../shared/settings';
import { writeFileAtomic } from './atomicWrite';
import { respellKeys, spellingNotice, type Respelling } from './keySpelling';
import { lineOfArrayTableKey, lineOfKey, respellTomlKeys, setTomlValues, type TomlChanges } from './tomlInPlace';
import { describeIssues, describeTomlError } from './validationMessages';

const NEW_FILE_HEADER = '# Tandem settings. See docs/configuration.md.\n';

export interface LoadedSettings {
  settings: Settings;
  /**
   * Why the file could not be used; the defaults are in effect and the file is untouched.
   * It does not name the file: whoever shows it names it once.
   */
  error?: string;
  /** The file works, but says something in a way that is on its way out (old key spellings). */
  notice?: string;
}

export function loadSettings(path: string): LoadedSettings {
  if (!existsSync(path)) return { settings: DEFAULT_SETTINGS };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { settings: DEFAULT_SETTINGS, error: `it could not be read: ${(error as Error).message}` };
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = parse(text);
  } catch (error) {
    return { settings: DEFAULT_SETTINGS, error: describeTomlError(error, text) };
  }
  const { data, respelled } = respellKeys(parsed);
  const notice = spellingNotice(respelled);
  const result = SettingsSchema.safeParse(data);
  if (!result.success) {
    const spelledAs = (table: string, key: string) => respelled.find((item) => item.table === table && item.to === key && !item.shadowed)?.from ?? key;
    const error = describeIssues(result.error, {
      spelledAs,
      lineOf: (table, key) => lineOfKey(text, table, key),
      lineOfArrayTableKey: (path, index, key) => lineOfArrayTableKey(text, path, index, key),
    });
    return { settings: DEFAULT_SETTINGS, error, ...(notice ? { notice } : {}) };
  }
  return { settings: result.data, ...(notice ? { notice } : {}) };
}

/**
 * Applies a patch from the settings UI and writes config.toml, in place: only the changed
 * keys' values change, new keys join their table, and comments, order and formatting stay.
 * Keys in an old spelling are written in the new one (one set in both spellings loses the
 * old line). (A file in a shape the in-place editor does not follow — an inline `ai = { … }`
 * table — is written out whole, as smol-toml formats it.) Refuses (throws) when the file on
 * disk is currently invalid, so a typo the user is fixing is never overwritten.
 */
export function updateSettings(path: string, patch: SettingsPatch): Settings {
  const current = loadSettings(path);
  if (current.error) throw new Error(`Not saving: ${path} cannot be used (${current.error}). Fix the file first; it was left as it is.`);
  // A config.toml that is a symlink (dotfile managers) is updated where it points, keeping its mode.
  const target = existsSync(path) ? realpathSync(path) : path;
  const mode = existsSync(target) ? statSync(target).mode & 0o777 : 0o600;
  const original = existsSync(target) ? readFileSync(target, 'utf8') : '';
  const { data: onDisk, respelled } = respellKeys(parse(original));
  const changes: TomlChanges = {};
  for (const [section, values] of Object.entries(patch)) {
    if (!values) continue;
    const existing = (onDisk[section] as Record<string, unknown> | undefined) ?? {};
    const changed = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
    if (Object.keys(changed).length === 0) continue;
    onDisk[section] = { ...existing, ...changed };
    changes[section] = changed;
  }
  const settings = SettingsSchema.parse(onDisk);
  writeFileAtomic(target, editedText(original, respelled, changes, onDisk), mode);
  return settings;
}

/** The file edited in place, checked by parsing it back; written out whole if that is not possible. */
function editedText(original: string, respelled: readonly Respelling[], changes: TomlChanges, expected: Record<string, unknown>): string {
  try {
    const text = setTomlValues(original === '' ? NEW_FILE_HEADER : respellTomlKeys(original, respelled), changes);
    // Compared as plain data (smol-toml's tables have no prototype).
    if (isDeepStrictEqual(plainData(parse(text)), plainData(expected))) return text;
  } catch {
    // Fall through: the whole file, as smol-toml writes it.
  }
  return `${NEW_FILE_HEADER}${stringify(expected)}\n`;
}

function plainData(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}
