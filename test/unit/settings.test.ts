import { chmodSync, lstatSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings, updateSettings } from '../../src/main/settings/configFile';
import { tandemPaths } from '../../src/main/settings/paths';
import { DEFAULT_SETTINGS, SETTING_LIMITS, SettingsPatchSchema } from '../../src/shared/settings';
import { useTempConfigFile } from '../support/tempConfigFile';

const tempFile = useTempConfigFile('tandem-settings-');

describe('config.toml', () => {
  it('uses the defaults when there is no file', () => {
    expect(loadSettings(tempFile())).toEqual({ settings: DEFAULT_SETTINGS });
    expect(DEFAULT_SETTINGS.terminal.scrollback).toBe(10_000);
  });

  it('reads partial files and fills in defaults', () => {
    const { settings, error } = loadSettings(tempFile('[terminal]\nfont_size = 16\n'));
    expect(error).toBeUndefined();
    expect(settings.terminal.font_size).toBe(16);
    expect(settings.shell.integration).toBe(true);
  });

  it('reports a syntax error, an unknown key and a wrong type, without the file path (the banner names it once)', () => {
    const syntax = tempFile('[terminal\n');
    expect(loadSettings(syntax).error).toMatch(/^not valid TOML, line 1, column \d+: /);
    expect(loadSettings(syntax).error).not.toContain(syntax);
    expect(loadSettings(tempFile('[terminal]\nfontSise = 3\n')).error).toMatch(/terminal/);
    expect(loadSettings(tempFile('[terminal]\ntheme = "purple"\n')).error).toContain('terminal.theme');
  });

  it('names the line and column of a syntax error, and the line of a key zod refuses', () => {
    expect(loadSettings(tempFile('# settings\n[terminal]\nfont_size = = 3\n')).error).toMatch(/not valid TOML, line 3, column \d+:/);
    expect(loadSettings(tempFile('[terminal]\n# note\nfontSise = 3\n')).error).toContain('terminal.fontSise (line 3)');
    expect(loadSettings(tempFile('[ai]\n\n[terminal]\ncursor_blink = true\ntheme = "purple"\n')).error).toContain('terminal.theme (line 5)');
  });

  it('names a string left open at the end of its line an unclosed quote, not a control character', () => {
    expect(loadSettings(tempFile('[terminal]\nfont_family = "Fira Code\nfont_size = 3\n')).error).toBe('not valid TOML: unclosed quote on line 2');
    expect(loadSettings(tempFile("[ai]\nmodel = 'claude\r\n")).error).toBe('not valid TOML: unclosed quote on line 2');
    expect(loadSettings(tempFile('[ai]\nmodel = "claude')).error).toBe('not valid TOML: unclosed quote on line 2');
    expect(loadSettings(tempFile('[ai]\nmodel = """claude\n')).error).toBe('not valid TOML: unclosed quote on line 2');
    // A real control character inside a closed string keeps smol-toml's message.
    expect(loadSettings(tempFile('[ai]\nmodel = "a\u0001b"\n')).error).toMatch(/^not valid TOML, line 2, column \d+: control characters are not allowed/);
  });

  it('saving edits the file in place: comments, order and untouched keys stay as they were', () => {
    const text = '# mine\n[terminal]\ntheme = "dark"   # night\nfont_size = 13\n\n# the AI\n[ai]\nmodel = "m"\n';
    const file = tempFile(text);
    updateSettings(file, { terminal: { font_size: 15 }, ai: { steps_use_pager: true }, session: { restore: false } });
    expect(readFileSync(file, 'utf8')).toBe('# mine\n[terminal]\ntheme = "dark"   # night\nfont_size = 15\n\n# the AI\n[ai]\nmodel = "m"\nsteps_use_pager = true\n\n[session]\nrestore = false\n');
    // A shape the in-place editor does not follow is still saved (written out whole).
    const inline = tempFile('ai = { model = "m" }\n');
    expect(updateSettings(inline, { ai: { max_output_tokens: 1024 } }).ai).toMatchObject({ model: 'm', max_output_tokens: 1024 });
    expect(loadSettings(inline).settings.ai.max_output_tokens).toBe(1024);
  });

  it('updates one key and keeps the others', () => {
    const file = tempFile('[shell]\npath = "/bin/zsh"\n');
    const settings = updateSettings(file, { terminal: { theme: 'light' } });
    expect(settings.terminal.theme).toBe('light');
    expect(loadSettings(file).settings.shell.path).toBe('/bin/zsh');
  });

  it('never overwrites an invalid file', () => {
    const file = tempFile('not = [valid');
    expect(() => updateSettings(file, { terminal: { font_size: 12 } })).toThrow(/left as it is/);
    expect(readFileSync(file, 'utf8')).toBe('not = [valid');
  });
});

describe('tandemPaths', () => {
  it('honours XDG variables and ignores relative ones', () => {
    const paths = tandemPaths({ HOME: '/h', XDG_CONFIG_HOME: '/c', XDG_STATE_HOME: 'relative' });
    expect(paths.configFile).toBe('/c/tandem/config.toml');
    expect(paths.sessionFile).toBe('/h/.local/state/tandem/session.json');
    expect(paths.dataDir).toBe('/h/.local/share/tandem');
  });
});

describe('settings updates keep what they do not touch', () => {
  it('changing one key leaves the other keys of that section and other sections as they were', () => {
    const file = tempFile('[terminal]\nscrollback = 50000\ntheme = "light"\n[shell]\npath = "/usr/bin/zsh"\n');
    updateSettings(file, { terminal: { font_size: 16 } });
    updateSettings(file, { shell: { integration: false } });
    const { settings } = loadSettings(file);
    expect(settings.terminal).toMatchObject({ scrollback: 50_000, theme: 'light', font_size: 16 });
    expect(settings.shell).toMatchObject({ path: '/usr/bin/zsh', integration: false });
  });

  it('updates a symlinked config.toml where it points, keeping its mode', () => {
    const real = tempFile('[terminal]\nfont_size = 12\n');
    chmodSync(real, 0o644);
    const link = join(dirname(real), 'linked.toml');
    symlinkSync(real, link);
    updateSettings(link, { terminal: { font_size: 20 } });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(loadSettings(real).settings.terminal.font_size).toBe(20);
    expect(statSync(real).mode & 0o777).toBe(0o644);
  });
});

describe('SETTING_LIMITS, what the settings UI shows as bounds and choices', () => {
  it('are exactly what the schema accepts', () => {
    const numeric = {
      fontSize: ['terminal', 'font_size'],
      scrollback: ['terminal', 'scrollback'],
      maxOutputTokens: ['ai', 'max_output_tokens'],
      stepTimeoutSeconds: ['ai', 'step_timeout_seconds'],
      contextBlocks: ['ai', 'context_blocks'],
      historyTokenBudget: ['ai', 'history_token_budget'],
      sessionTokenBudget: ['ai', 'session_token_budget'],
    } as const;
    const accepts = (section: string, key: string, value: unknown) => SettingsPatchSchema.safeParse({ [section]: { [key]: value } }).success;
    for (const [name, [section, key]] of Object.entries(numeric)) {
      const { min, max } = SETTING_LIMITS[name as keyof typeof numeric];
      expect([accepts(section, key, min), accepts(section, key, max)], name).toEqual([true, true]);
      expect([accepts(section, key, min - 1), accepts(section, key, max + 1)], name).toEqual([false, false]);
    }
    expect(accepts('ai', 'model', 'm'.repeat(SETTING_LIMITS.modelLength))).toBe(true);
    expect(accepts('ai', 'model', 'm'.repeat(SETTING_LIMITS.modelLength + 1))).toBe(false);
    expect(accepts('ai', 'base_url', 'u'.repeat(SETTING_LIMITS.baseUrlLength + 1))).toBe(false);
    const names = (count: number) => Array.from({ length: count }, (_, i) => `V${i}`);
    expect(accepts('context', 'include_env', names(SETTING_LIMITS.includedEnv))).toBe(true);
    expect(accepts('context', 'include_env', names(SETTING_LIMITS.includedEnv + 1))).toBe(false);
    for (const theme of SETTING_LIMITS.themes) expect(accepts('terminal', 'theme', theme)).toBe(true);
    for (const backend of SETTING_LIMITS.backends) expect(accepts('ai', 'backend', backend)).toBe(true);
    expect(SETTING_LIMITS.themes).toContain(DEFAULT_SETTINGS.terminal.theme);
  });
});
