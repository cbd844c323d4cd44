import { SETTINGS_KEYS } from '../../shared/settings';

/**
 * config.toml's keys are snake_case. Older versions spelled some camelCase (`fontSize`,
 * `ai.baseUrl`); those are still read, as the snake_case key they name, with a notice. The
 * rule is general: a camelCase key whose snake_case form is a key of its table is that key,
 * so every key added later is covered too.
 */

/** A key written in an old spelling, and the key it stands for. */
export interface Respelling {
  table: string;
  /** As written in the file. */
  from: string;
  /** The key in the schema. */
  to: string;
  /** The file sets `to` as well: that one wins and `from` is ignored. */
  shadowed: boolean;
}

/** `fontSize` → `font_size`, `baseURL` → `base_url`; snake_case stays as it is. */
export function snakeCase(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** The key `key` of `table` stands for, when it is an old spelling of a key in the schema. */
export function currentSpelling(table: string, key: string, known: Readonly<Record<string, readonly string[]>> = SETTINGS_KEYS): string | undefined {
  const keys = known[table];
  if (!keys || keys.includes(key) || !/[A-Z]/.test(key)) return undefined;
  const snake = snakeCase(key);
  return keys.includes(snake) ? snake : undefined;
}

/**
 * The parsed file with old spellings replaced by the keys they stand for (the file's data is
 * not changed), and what was replaced. Where both spellings are set, the snake_case one wins.
 */
export function respellKeys(data: Record<string, unknown>, known: Readonly<Record<string, readonly string[]>> = SETTINGS_KEYS): { data: Record<string, unknown>; respelled: Respelling[] } {
  const respelled: Respelling[] = [];
  const out: Record<string, unknown> = { ...data };
  for (const [table, values] of Object.entries(data)) {
    if (!isTable(values)) continue;
    const section: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      const to = currentSpelling(table, key, known);
      if (to === undefined) {
        section[key] = value;
        continue;
      }
      const shadowed = Object.hasOwn(values, to);
      respelled.push({ table, from: key, to, shadowed });
      if (!shadowed) section[to] = value;
    }
    out[table] = section;
  }
  return { data: out, respelled };
}

/** One line for the user (the settings banner, the engine log), or undefined when every key is spelled as it should be. */
export function spellingNotice(respelled: readonly Respelling[]): string | undefined {
  if (respelled.length === 0) return undefined;
  const parts: string[] = [];
  const renamed = respelled.filter((item) => !item.shadowed);
  if (renamed.length > 0) {
    const list = renamed.map((item) => `${item.table}.${item.from} → ${item.to}`).join(', ');
    parts.push(`old key spelling${renamed.length > 1 ? 's' : ''} ${list} still work${renamed.length > 1 ? '' : 's'} but will not forever; keys are snake_case now (saving from Settings rewrites them)`);
  }
  for (const item of respelled.filter((candidate) => candidate.shadowed)) {
    parts.push(`${item.table}.${item.from} is ignored: it is the old spelling of ${item.table}.${item.to}, which is also set and wins`);
  }
  return parts.join('; ');
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
