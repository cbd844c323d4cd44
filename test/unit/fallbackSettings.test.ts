import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSettings, updateSettings } from '../../src/main/settings/configFile';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import { useTempConfigFile } from '../support/tempConfigFile';

const tempFile = useTempConfigFile('tandem-fallback-settings-');

const OLLAMA = '[[ai.fallback]]\nbackend = "openai-compatible"\nbase_url = "http://127.0.0.1:11434/v1"\nmodel = "llama3"\n';

describe('[[ai.fallback]] tables in config.toml', () => {
  it('are read in order, with the keys a table leaves out filled in', () => {
    const { settings, error } = loadSettings(tempFile(`[ai]\nmodel = "claude-opus-4-5"\n\n${OLLAMA}\n[[ai.fallback]]\nbackend = "anthropic"\nmodel = "claude-haiku-4-5"\napi_key_env = "SPARE_ANTHROPIC_KEY"\n`));
    expect(error).toBeUndefined();
    expect(settings.ai.model).toBe('claude-opus-4-5');
    expect(settings.ai.fallback).toEqual([
      { backend: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3', api_key_env: '' },
      { backend: 'anthropic', base_url: '', model: 'claude-haiku-4-5', api_key_env: 'SPARE_ANTHROPIC_KEY' },
    ]);
    expect(DEFAULT_SETTINGS.ai.fallback).toEqual([]);
  });

  it('a broken table is named by its place and line; the defaults are used and the file is not touched', () => {
    const cases: [string, string][] = [
      [`${OLLAMA}\n[[ai.fallback]]\nbackend = "ollama"\nmodel = "x"\n`, '[[ai.fallback]] #2, backend (line 7):'],
      [`${OLLAMA}\n[[ai.fallback]]\nbackend = "openai-compatible"\n`, '[[ai.fallback]] #2, model (line 6): required'],
      ['[[ai.fallback]]\nbackend = "openai-compatible"\nmodel = "m"\napi_key = "sk-live"\n', '[[ai.fallback]] #1, api_key (line 4): Unrecognized key'],
      ['[[ai.fallback]]\nbackend = "openai-compatible"\nmodel = "m"\napi_key_env = "$OLLAMA_KEY"\n', '[[ai.fallback]] #1, api_key_env (line 4): an environment variable name'],
      ['[ai]\nfallback = "ollama"\n', 'ai.fallback (line 2):'],
    ];
    for (const [text, message] of cases) {
      const path = tempFile(text);
      const loaded = loadSettings(path);
      expect(loaded.error, text).toContain(message);
      expect(loaded.settings).toEqual(DEFAULT_SETTINGS);
      expect(() => updateSettings(path, { ai: { model: 'other' } })).toThrow(/Not saving/);
      expect(readFileSync(path, 'utf8')).toBe(text);
    }
  });

  it('saving [ai] from Settings keeps the fallback tables and their comments, even with no [ai] table in the file yet', () => {
    const path = tempFile(`# my backends\n[[ai.fallback]] # the local one\nbackend = "openai-compatible" # Ollama\nbase_url = "http://127.0.0.1:11434/v1"\nmodel = "llama3"\n`);
    updateSettings(path, { ai: { model: 'claude-opus-4-5' } });
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('# the local one');
    expect(text).toContain('# Ollama');
    const { settings, error } = loadSettings(path);
    expect(error).toBeUndefined();
    expect(settings.ai.model).toBe('claude-opus-4-5');
    expect(settings.ai.fallback).toEqual([{ backend: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3', api_key_env: '' }]);
  });
});
