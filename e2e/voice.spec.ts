import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startTranscriptionServer, type TranscriptionServer, type WavFacts } from '../test/support/transcriptionServer';
import { messages, useAgentTandem } from './support/aiPanel';
import { spokenWav } from '../test/support/spokenWav';
import { fakeMicrophoneLaunch } from './support/fakeMicrophone';
import { makeHome, makeHomeWithConfig, writeConfig } from './support/tandemServer';

// Push-to-talk end to end (docs/voice.md): Debian's Chromium with a fake microphone that plays
// espeak-ng's "list the files here", `tandem web`, the scripted transcription server on
// loopback, and the scripted model behind the real SDK.

test.use({ launchOptions: fakeMicrophoneLaunch(spokenWav('list the files here')) });

const ai = useAgentTandem();
let stt: TranscriptionServer;
test.beforeEach(async () => {
  stt = await startTranscriptionServer({ text: 'list the files here' });
});
test.afterEach(() => stt.close());

const voiceConfig = (more = '') => `[voice]\nendpoint = "${stt.url}"\nlanguage = "en"\n${more}`;
const userMessages = (page: Page) => page.getByTestId('ai-panel').locator('[data-testid="ai-message"][data-role="user"]');

/** Waits until the recording indicator shows and its level meter has read both quiet and speech. */
async function meterMoved(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { __levels?: number[] }).__levels = []));
  await expect(page.getByTestId('voice-recording')).toBeVisible();
  await page.waitForFunction(
    () => {
      const level = Number(document.querySelector<HTMLElement>('[data-testid="voice-level"]')?.dataset.level ?? 'NaN');
      const seen = ((window as unknown as { __levels?: number[] }).__levels ??= []);
      if (Number.isFinite(level)) seen.push(level);
      return Math.max(...seen) > 0.01 && Math.min(...seen) < Math.max(...seen) / 2;
    },
    undefined,
    { polling: 50 },
  );
}

function heardWav(index = 0): WavFacts {
  const request = stt.requests[index];
  expect(request?.path).toBe('/v1/audio/transcriptions');
  expect(request?.fields).toEqual({ model: 'whisper-1', language: 'en', response_format: 'json' });
  expect(request?.file).toMatchObject({ name: 'speech.wav', type: 'audio/wav' });
  const wav = request!.file!.wav;
  if ('problem' in wav) throw new Error(`the server got no valid WAV: ${wav.problem}`);
  return wav;
}

test('hold the key at a pane: indicator and moving meter, a valid WAV goes out, `# transcript` lands in the input, Enter sends it', async ({ page }) => {
  const { pane, panel } = await ai.start(page, makeHomeWithConfig(voiceConfig()));
  ai.model.script({ parts: [{ text: 'Here they are.' }] });
  await pane.click();
  await page.keyboard.down('Control');
  await page.keyboard.down('Shift');
  await page.keyboard.down('M');
  await meterMoved(page);
  await expect(page.getByTestId('voice-elapsed')).toHaveText(/^0:0[1-9]$/);
  await page.keyboard.up('M');
  await page.keyboard.up('Shift');
  await page.keyboard.up('Control');
  await expect(page.getByTestId('voice-recording')).toHaveCount(0);

  const input = panel.getByTestId('ai-input');
  await expect(input).toHaveValue('# list the files here');
  await expect(input).toBeFocused();
  await expect(page.getByTestId('voice-review')).toContainText('Enter sends, Esc discards');
  const wav = heardWav();
  expect(wav).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
  expect(wav.seconds).toBeGreaterThan(0.9);
  expect(wav.seconds).toBeLessThan(15);
  // The fake microphone's speech is in the recording, not silence.
  expect(wav.rms).toBeGreaterThan(0.005);
  expect(ai.model.requests).toHaveLength(0);

  await input.press('Enter');
  expect(messages(await ai.model.waitForRequest(1))).toContain('list the files here');
  expect(messages(ai.model.requests[0]!)).not.toContain('# list the files here');
  await expect(userMessages(page).last()).toHaveText(/list the files here/);
  await expect(input).toHaveValue('');
  expect(stt.requests).toHaveLength(1);
});

/** Keeps every microphone track the page opens, to see whether it was stopped. */
async function watchMicrophoneTracks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const tracks: MediaStreamTrack[] = ((window as unknown as { __tracks: MediaStreamTrack[] }).__tracks = []);
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await original(constraints);
      tracks.push(...stream.getTracks());
      return stream;
    };
  });
}

const trackStates = (page: Page) => page.evaluate(() => (window as unknown as { __tracks: MediaStreamTrack[] }).__tracks.map((track) => `${track.kind}:${track.readyState}`));

test('the microphone button: what was typed stays, the transcript joins it, Esc puts the input back and sends nothing', async ({ page }) => {
  await watchMicrophoneTracks(page);
  const { panel } = await ai.start(page, makeHomeWithConfig(voiceConfig()));
  await page.keyboard.press('Control+Shift+Space');
  const input = panel.getByTestId('ai-input');
  await input.fill('please');
  const button = panel.getByTestId('voice-button');
  await button.click();
  await meterMoved(page);
  expect(await trackStates(page)).toEqual(['audio:live']);
  await button.click();
  // The microphone is off as soon as the recording ends, before the transcript is back.
  expect(await trackStates(page)).toEqual(['audio:ended']);
  await expect(input).toHaveValue('please list the files here');
  heardWav();

  await input.press('Escape');
  await expect(input).toHaveValue('please');
  await expect(page.getByTestId('voice-review')).toHaveCount(0);
  expect(ai.model.requests).toHaveLength(0);

  // Esc while recording: the microphone goes off and nothing is sent.
  await button.click();
  await meterMoved(page);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('voice-recording')).toHaveCount(0);
  await expect(page.getByTestId('voice-notice')).toContainText('Recording cancelled; nothing was sent.');
  expect(await trackStates(page)).toEqual(['audio:ended', 'audio:ended']);
  expect(stt.requests).toHaveLength(1);
  await expect(input).toHaveValue('please');
});

test('max_seconds cuts a recording: it stops and is transcribed by itself', async ({ page }) => {
  await watchMicrophoneTracks(page);
  const { panel } = await ai.start(page, makeHomeWithConfig(voiceConfig('max_seconds = 1\n')));
  await page.keyboard.press('Control+Shift+Space');
  await panel.getByTestId('voice-button').click();
  await expect(panel.getByTestId('ai-input')).toHaveValue('list the files here');
  expect(await trackStates(page)).toEqual(['audio:ended']);
  const wav = heardWav();
  // However late the timer fired on a busy machine, the clip holds no more than max_seconds.
  expect(wav.seconds).toBeGreaterThan(0.5);
  expect(wav.seconds).toBeLessThanOrEqual(1);
});

test('send = "immediately": the transcript goes to the model with no Enter; a server error is shown and loses nothing', async ({ page }) => {
  const { pane, panel } = await ai.start(page, makeHomeWithConfig(voiceConfig('send = "immediately"\npush_to_talk_mode = "toggle"\n')));
  ai.model.script({ parts: [{ text: 'Done.' }] });
  await pane.click();
  await page.keyboard.press('Control+Shift+M');
  await meterMoved(page);
  await page.keyboard.press('Control+Shift+M');
  expect(messages(await ai.model.waitForRequest(1))).toContain('list the files here');
  await expect(panel.getByTestId('ai-input')).toHaveValue('');
  heardWav();

  stt.script({ error: 'whisper', status: 500, message: 'failed to process audio' });
  await panel.getByTestId('ai-input').fill('draft stays');
  await page.keyboard.press('Control+Shift+M');
  await meterMoved(page);
  await page.keyboard.press('Control+Shift+M');
  await expect(page.getByTestId('voice-notice')).toContainText(`answered 500: failed to process audio`);
  await expect(page.getByTestId('voice-notice')).toHaveAttribute('data-kind', 'error');
  await expect(panel.getByTestId('ai-input')).toHaveValue('draft stays');
  expect(stt.requests).toHaveLength(2);
  expect(ai.model.requests).toHaveLength(1);
});

test('with no endpoint the button explains the setup: no microphone, no request; once config.toml names one, it records', async ({ page }) => {
  await page.addInitScript(() => {
    const calls = ((window as unknown as { __microphoneAsked: number }).__microphoneAsked = 0);
    void calls;
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = (constraints) => {
      (window as unknown as { __microphoneAsked: number }).__microphoneAsked++;
      return original(constraints);
    };
  });
  const home = makeHome();
  const { pane, panel } = await ai.start(page, home);
  await page.keyboard.press('Control+Shift+Space');
  await panel.getByTestId('voice-button').click();
  const notice = page.getByTestId('voice-notice');
  await expect(notice).toHaveAttribute('data-kind', 'setup');
  await expect(notice).toContainText('nothing is recorded or sent until Settings → Voice (or [voice] endpoint in config.toml)');
  await expect(notice).toContainText('--inference-path /v1/audio/transcriptions');
  await expect(notice).toContainText('speaches');
  await pane.click();
  await page.keyboard.press('Control+Shift+M');
  await expect(page.getByTestId('voice-recording')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __microphoneAsked: number }).__microphoneAsked)).toBe(0);
  expect(stt.requests).toHaveLength(0);

  // Live: config.toml gains an endpoint, and the same button records and sends.
  writeConfig(home, voiceConfig());
  await expect(panel.getByTestId('voice-button')).toHaveAttribute('title', /Speak an instruction/);
  await panel.getByTestId('voice-button').click();
  await meterMoved(page);
  await panel.getByTestId('voice-button').click();
  await expect(panel.getByTestId('ai-input')).toHaveValue('list the files here');
  expect(await page.evaluate(() => (window as unknown as { __microphoneAsked: number }).__microphoneAsked)).toBe(1);
  expect(stt.requests).toHaveLength(1);
});

test('Settings → Voice: a bad endpoint is refused in the dialog; a good one is saved to [voice] and the button records at once', async ({ page }) => {
  const home = makeHome();
  const { panel } = await ai.start(page, home);
  await page.keyboard.press('Control+,');
  const dialog = page.getByTestId('settings-dialog');
  const voice = dialog.getByTestId('settings-voice');
  await expect(voice.locator('input[name="voiceEndpoint"]')).toHaveValue('');
  await expect(voice.locator('input[name="voiceModel"]')).toHaveValue('whisper-1');

  await voice.locator('input[name="voiceEndpoint"]').fill('127.0.0.1:8080');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-error')).toContainText('Transcription endpoint: must be an http:// or https:// base URL');
  await expect(dialog).toBeVisible();
  expect(existsSync(join(home, '.config/tandem/config.toml'))).toBe(false);

  await voice.locator('input[name="voiceEndpoint"]').fill(stt.url);
  await voice.locator('input[name="voiceLanguage"]').fill('en');
  await voice.locator('select[name="voiceMode"]').selectOption('toggle');
  await page.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  const saved = readFileSync(join(home, '.config/tandem/config.toml'), 'utf8');
  expect(saved).toMatch(/^\[voice\]$/m);
  expect(saved).toContain(`endpoint = "${stt.url}"`);
  expect(saved).toMatch(/^language = "en"$/m);
  expect(saved).toMatch(/^push_to_talk_mode = "toggle"$/m);

  await page.keyboard.press('Control+Shift+Space');
  await expect(panel.getByTestId('voice-button')).toHaveAttribute('title', /Speak an instruction/);
  await panel.getByTestId('voice-button').click();
  await meterMoved(page);
  await panel.getByTestId('voice-button').click();
  await expect(panel.getByTestId('ai-input')).toHaveValue('list the files here');
  expect(heardWav().seconds).toBeGreaterThan(0.3);
});

test('speak_answers: the final answer goes to the speech endpoint; Esc stops the speech and nothing else', async ({ page }) => {
  const { panel } = await ai.start(page, makeHomeWithConfig(voiceConfig(`speak_answers = true\nspeech_endpoint = "${stt.url}"\nvoice = "nova"\n`)));
  ai.model.script({ parts: [{ text: 'Your **disk** is fine.\n\n```\ndf -h\n```' }] });
  await page.keyboard.press('Control+Shift+Space');
  const input = panel.getByTestId('ai-input');
  await input.fill('how is my disk');
  await input.press('Enter');
  await expect(page.getByTestId('voice-status')).toContainText('Speaking the answer');
  // The phase shows as soon as the speech is asked for; the request reaches the server a moment later.
  await expect
    .poll(() => stt.requests.find((request) => request.path === '/v1/audio/speech')?.fields)
    .toMatchObject({ model: 'tts-1', voice: 'nova', input: 'Your disk is fine. (code in the panel)' });
  await input.fill('typed meanwhile');
  await input.press('Escape');
  await expect(page.getByTestId('voice-status')).toHaveCount(0);
  await expect(input).toHaveValue('typed meanwhile');
  await expect(input).toBeFocused();
});

test("speak_answers without a speech endpoint: the system's speech synthesis reads it; a new recording stops it", async ({ page }) => {
  // The OS voice is the edge of the world here: a stand-in records what it was asked to say.
  await page.addInitScript(() => {
    const said: string[] = [];
    let cancelled = 0;
    Object.defineProperty(window, 'speechSynthesis', {
      value: { speak: (utterance: SpeechSynthesisUtterance) => said.push(utterance.text), cancel: () => cancelled++ },
    });
    (window as unknown as { __speech: () => { said: string[]; cancelled: number } }).__speech = () => ({ said, cancelled });
  });
  const speech = () => page.evaluate(() => (window as unknown as { __speech: () => { said: string[]; cancelled: number } }).__speech());
  const { pane, panel } = await ai.start(page, makeHomeWithConfig(voiceConfig('speak_answers = true\n')));
  ai.model.script({ parts: [{ text: 'All **green**.' }] });
  await page.keyboard.press('Control+Shift+Space');
  const input = panel.getByTestId('ai-input');
  await input.fill('run the checks');
  await input.press('Enter');
  await expect(page.getByTestId('voice-status')).toContainText('Speaking the answer');
  expect(await speech()).toEqual({ said: ['All green.'], cancelled: 0 });
  expect(stt.requests).toHaveLength(0);

  await pane.click();
  for (const key of ['Control', 'Shift', 'M']) await page.keyboard.down(key);
  await meterMoved(page);
  expect((await speech()).cancelled).toBe(1);
  await expect(page.getByTestId('voice-status')).toHaveCount(0);
  for (const key of ['M', 'Shift', 'Control']) await page.keyboard.up(key);
  await expect(panel.getByTestId('ai-input')).toHaveValue('# list the files here');
});

