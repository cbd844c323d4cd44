import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSettings, updateSettings } from '../../src/main/settings/configFile';
import { currentSpelling, respellKeys, snakeCase, spellingNotice } from '../../src/main/settings/keySpelling';
import { DEFAULT_SETTINGS, SETTINGS_KEYS } from '../../src/shared/settings';
import { useTempConfigFile } from '../support/tempConfigFile';

/** Every key older versions wrote in camelCase, and its key now. */
const OLD_KEYS: [string, string, string][] = [
  ['terminal', 'fontFamily', 'font_family'],
  ['terminal', 'fontSize', 'font_size'],
  ['terminal', 'cursorBlink', 'cursor_blink'],
  ['terminal', 'copyOnSelect', 'copy_on_select'],
  ['ai', 'baseUrl', 'base_url'],
  ['ai', 'maxOutputTokens', 'max_output_tokens'],
  ['ai', 'stepTimeoutSeconds', 'step_timeout_seconds'],
  ['ai', 'stepsUsePager', 'steps_use_pager'],
  ['ai', 'contextBlocks', 'context_blocks'],
  ['ai', 'historyTokenBudget', 'history_token_budget'],
  ['ai', 'sessionTokenBudget', 'session_token_budget'],
];

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const schemaKeys = Object.entries(SETTINGS_KEYS).flatMap(([table, keys]) => keys.map((key) => [table, key] as const));
const camelCase = (key: string) => key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

const tempFile = useTempConfigFile('tandem-spelling-');

describe('config.toml key spelling', () => {
  it('the schema spells every key (and table) in snake_case', () => {
    expect(schemaKeys.length).toBeGreaterThan(30);
    fc.assert(
      fc.property(fc.constantFrom(...schemaKeys), ([table, key]) => {
        expect(table).toMatch(SNAKE_CASE);
        expect(key).toMatch(SNAKE_CASE);
      }),
    );
  });

  it('every key of the schema, written in camelCase, is read as that key (so keys added later are covered too)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...schemaKeys), fc.integer(), ([table, key], value) => {
        const old = camelCase(key);
        expect(currentSpelling(table, old)).toBe(old === key ? undefined : key);
        const { data } = respellKeys({ [table]: { [old]: value } });
        expect(data).toEqual({ [table]: { [key]: value } });
      }),
    );
  });

  it('maps every old key to its new one', () => {
    for (const [table, old, now] of OLD_KEYS) {
      expect(currentSpelling(table, old), `${table}.${old}`).toBe(now);
      expect(snakeCase(old)).toBe(now);
      expect(SETTINGS_KEYS[table]).toContain(now);
    }
    expect(snakeCase('baseURL')).toBe('base_url');
    // Not old spellings: keys of the schema, unknown keys, keys of another table.
    expect(currentSpelling('ai', 'small_model')).toBeUndefined();
    expect(currentSpelling('terminal', 'fontSise')).toBeUndefined();
    expect(currentSpelling('ai', 'fontSize')).toBeUndefined();
    expect(currentSpelling('nonsense', 'fontSize')).toBeUndefined();
  });

  it('an old-spelled file still works, with a one-line notice naming the new spellings', () => {
    const loaded = loadSettings(tempFile('[terminal]\nfontSize = 17\ncursorBlink = false\n[ai]\nbaseUrl = "http://127.0.0.1:11434/v1"\n'));
    expect(loaded.error).toBeUndefined();
    expect(loaded.settings.terminal).toMatchObject({ font_size: 17, cursor_blink: false });
    expect(loaded.settings.ai.base_url).toBe('http://127.0.0.1:11434/v1');
    expect(loaded.notice).toBe(
      'old key spellings terminal.fontSize → font_size, terminal.cursorBlink → cursor_blink, ai.baseUrl → base_url still work but will not forever; keys are snake_case now (saving from Settings rewrites them)',
    );
    expect(loaded.notice).not.toContain('\n');
    expect(loadSettings(tempFile('[terminal]\nfont_size = 17\n')).notice).toBeUndefined();
  });

  it('when both spellings are set, the snake_case one wins and the notice says so', () => {
    const loaded = loadSettings(tempFile('[ai]\nmaxOutputTokens = 1024\nmax_output_tokens = 4096\n'));
    expect(loaded.settings.ai.max_output_tokens).toBe(4096);
    expect(loaded.notice).toBe('ai.maxOutputTokens is ignored: it is the old spelling of ai.max_output_tokens, which is also set and wins');
    expect(spellingNotice([])).toBeUndefined();
  });

  it('a bad value under an old spelling is reported as the file spells it, with its line', () => {
    const loaded = loadSettings(tempFile('[terminal]\n# big\nfontSize = 500\n'));
    expect(loaded.settings).toEqual(DEFAULT_SETTINGS);
    expect(loaded.error).toMatch(/^terminal\.fontSize \(line 3\): /);
  });

  it('loading never rewrites the file; saving from Settings writes every key in the new spelling, in place', () => {
    const text = '# mine\n[terminal]\nfontSize = 13   # small screen\ntheme = "dark"\n\n[ai]\nstepsUsePager = true\nstep_timeout_seconds = 60\nstepTimeoutSeconds = 90  # old\nmodel = "m"\n';
    const file = tempFile(text);
    loadSettings(file);
    expect(readFileSync(file, 'utf8')).toBe(text);
    const saved = updateSettings(file, { terminal: { theme: 'light' } });
    expect(saved.terminal).toMatchObject({ font_size: 13, theme: 'light' });
    expect(saved.ai).toMatchObject({ steps_use_pager: true, step_timeout_seconds: 60 });
    expect(readFileSync(file, 'utf8')).toBe('# mine\n[terminal]\nfont_size = 13   # small screen\ntheme = "light"\n\n[ai]\nsteps_use_pager = true\nstep_timeout_seconds = 60\nmodel = "m"\n');
    expect(loadSettings(file).notice).toBeUndefined();
  });

  it('a changed key written in the old spelling is saved under the new one', () => {
    const file = tempFile('[terminal]\nfontSize = 13\n');
    updateSettings(file, { terminal: { font_size: 15 } });
    expect(readFileSync(file, 'utf8')).toBe('[terminal]\nfont_size = 15\n');
  });
});
