import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../../src/main/settings/configFile';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { useTempConfigFile } from '../../support/tempConfigFile';

const tempFile = useTempConfigFile('tandem-voice-settings-');
const load = (toml: string) => loadSettings(tempFile(toml));

describe('[voice] in config.toml', () => {
  it('is off by default: no endpoint, so nothing is recorded or sent', () => {
    expect(DEFAULT_SETTINGS.voice).toMatchObject({ endpoint: '', model: 'whisper-1', push_to_talk_mode: 'hold', send: 'review', max_seconds: 60, speak_answers: false });
  });

  it('reads every key', () => {
    const { settings, error } = load(
      [
        '[voice]',
        'endpoint = "http://127.0.0.1:8080/v1"',
        'model = "base.en"',
        'language = "en"',
        'api_key_env = "GROQ_API_KEY"',
        'push_to_talk_key = "Alt+Shift+V"',
        'push_to_talk_mode = "toggle"',
        'send = "immediately"',
        'max_seconds = 20',
        'speak_answers = true',
        'speech_endpoint = "https://api.openai.com/v1"',
        'speech_model = "gpt-4o-mini-tts"',
        'voice = "nova"',
      ].join('\n'),
    );
    expect(error).toBeUndefined();
    expect(settings.voice).toEqual({
      endpoint: 'http://127.0.0.1:8080/v1',
      model: 'base.en',
      language: 'en',
      api_key_env: 'GROQ_API_KEY',
      push_to_talk_key: 'Alt+Shift+V',
      push_to_talk_mode: 'toggle',
      send: 'immediately',
      max_seconds: 20,
      speak_answers: true,
      speech_endpoint: 'https://api.openai.com/v1',
      speech_model: 'gpt-4o-mini-tts',
      voice: 'nova',
    });
  });

  it('refuses bad values with the key and its line, and keeps the defaults', () => {
    const cases: [string, RegExp][] = [
      ['endpoint = "127.0.0.1:8080"', /voice\.endpoint \(line 2\): must be an http/],
      ['endpoint = "ftp://host/v1"', /voice\.endpoint/],
      ['speech_endpoint = "localhost"', /voice\.speech_endpoint/],
      ['push_to_talk_key = "M"', /voice\.push_to_talk_key \(line 2\): a shortcut needs Ctrl, Alt or Cmd/],
      ['push_to_talk_key = "Ctrl+R"', /shell's own history search/],
      ['push_to_talk_key = "Ctrl+Shift+Mute"', /Mute is not a key name/],
      ['push_to_talk_mode = "press"', /voice\.push_to_talk_mode/],
      ['send = "later"', /voice\.send/],
      ['max_seconds = 0', /voice\.max_seconds/],
      ['max_seconds = 121', /voice\.max_seconds/],
      ['language = "English"', /ISO-639-1/],
      ['api_key_env = "MY KEY"', /environment variable name/],
      ['model = ""', /voice\.model/],
      ['microphone = "default"', /voice/],
    ];
    for (const [line, message] of cases) {
      const { settings, error } = load(`[voice]\n${line}\n`);
      expect(error, line).toMatch(message);
      expect(settings.voice, line).toEqual(DEFAULT_SETTINGS.voice);
    }
  });
});
