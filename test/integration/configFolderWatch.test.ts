import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEngineClient } from '../support/engineClient';

const { open } = useEngineClient();

/**
 * The usual first run: ~/.config/tandem (here a whole XDG_CONFIG_HOME) does not exist when
 * Tandem starts. Edits made after it appears must apply live and broken ones be reported,
 * through the real engine, settings store and WebSocket transport.
 */
describe('config.toml edited by hand when its folder did not exist at start', () => {
  it('applies a file written after the folder appears, reports a broken one, and survives the folder being deleted and made again', async () => {
    const { engine, client, hello } = await open({ env: { XDG_CONFIG_HOME: join(tmpdir(), `tandem-xdg-${process.pid}-${Date.now()}`, 'config') } });
    const configDir = engine.engine.paths.configDir;
    const configFile = engine.engine.paths.configFile;
    expect(existsSync(join(configDir, '..'))).toBe(false);
    expect(hello.settings.terminal.font_size).toBe(14);
    const settingsEvents = () => client.eventsOf('settings.changed');
    try {
      // The folder (and its parents) appear, then the file.
      mkdirSync(configDir, { recursive: true });
      writeFileSync(configFile, '[terminal]\nfont_size = 19\n');
      await client.waitFor(() => settingsEvents().some((event) => event.settings.terminal.font_size === 19), 15_000, 'font_size 19 to apply');

      // A typo is reported, and the settings in effect stay.
      writeFileSync(configFile, '[terminal]\nfont_size = "big\n');
      const broken = await client.waitFor(() => settingsEvents().find((event) => event.error), 15_000, 'the broken file to be reported');
      expect(broken.error).toBe('not valid TOML: unclosed quote on line 2');
      expect(broken.settings.terminal.font_size).toBe(19);

      // The folder is deleted, then made again with another file (as a dotfile manager would).
      rmSync(configDir, { recursive: true });
      await client.waitFor(() => settingsEvents().some((event) => !event.error && event.settings.terminal.font_size === 14), 15_000, 'the defaults once the folder is gone');
      const staged = `${configDir}.new`;
      mkdirSync(staged);
      writeFileSync(join(staged, 'config.toml'), '[terminal]\nfont_size = 23\n');
      renameSync(staged, configDir);
      await client.waitFor(() => settingsEvents().some((event) => event.settings.terminal.font_size === 23), 15_000, 'font_size 23 from the new folder');

      // And it is watched again: a later edit applies.
      writeFileSync(configFile, '[terminal]\nfont_size = 11\n');
      await client.waitFor(() => settingsEvents().some((event) => event.settings.terminal.font_size === 11), 15_000, 'font_size 11 after the folder was replaced');
      expect(engine.engine.settings.terminal.font_size).toBe(11);
    } finally {
      rmSync(join(configDir, '../..'), { recursive: true, force: true });
    }
  });

  it('reports old key spellings where config errors are shown, applies them, and logs the notice', async () => {
    const { engine, client } = await open({ env: { XDG_CONFIG_HOME: join(tmpdir(), `tandem-xdg-${process.pid}-${Date.now()}-b`, 'config') } });
    const { configDir, configFile } = engine.engine.paths;
    try {
      mkdirSync(configDir, { recursive: true });
      writeFileSync(configFile, '[ai]\nmaxOutputTokens = 2048\nstep_timeout_seconds = 60\nstepTimeoutSeconds = 90\n');
      const changed = await client.waitFor(() => client.eventsOf('settings.changed').find((event) => event.notice), 15_000, 'the spelling notice');
      expect(changed.error).toBeUndefined();
      expect(changed.settings.ai).toMatchObject({ max_output_tokens: 2048, step_timeout_seconds: 60 });
      expect(changed.notice).toContain('ai.maxOutputTokens → max_output_tokens');
      expect(changed.notice).toContain('ai.stepTimeoutSeconds is ignored');
      expect((await client.request('hello', {})).settingsNotice).toBe(changed.notice);
      expect(readFileSync(engine.engine.log.file, 'utf8')).toContain('maxOutputTokens → max_output_tokens');
    } finally {
      rmSync(join(configDir, '../..'), { recursive: true, force: true });
    }
  });
});
