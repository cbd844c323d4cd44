import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineLog } from '../../../src/main/log/engineLog';
import { VoiceService } from '../../../src/main/voice/voiceService';
import { DEFAULT_VOICE_SETTINGS, type VoiceSettings } from '../../../src/shared/voiceSettings';
import { encodeWav } from '../../../src/renderer/src/voice/wavEncoder';
import { deadPort } from '../../support/deadPort';
import { startTranscriptionServer, type TranscriptionServer } from '../../support/transcriptionServer';

const speech = (seconds: number) => encodeWav([Float32Array.from({ length: seconds * 16_000 }, (_, index) => 0.3 * Math.sin(index / 5))], 16_000);

let server: TranscriptionServer;
let dir: string;
let fetches: string[];

beforeEach(async () => {
  server = await startTranscriptionServer();
  dir = mkdtempSync(join(tmpdir(), 'tandem-voice-'));
  fetches = [];
});
afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function voice(settings: Partial<VoiceSettings>, env: NodeJS.ProcessEnv = {}, more: { timeoutMs?: number } = {}) {
  const log = new EngineLog({ file: join(dir, 'engine.log') });
  const service = new VoiceService({
    settings: () => ({ ...DEFAULT_VOICE_SETTINGS, ...settings }),
    env,
    log,
    retryAfterMs: 10,
    // The real fetch, counted: "nothing is sent" is checked at the edge, not inferred.
    fetch: (input, init) => {
      fetches.push(String(input));
      return fetch(input, init);
    },
    ...more,
  });
  return { service, logText: () => readFileSync(log.file, 'utf8') };
}

describe('push-to-talk transcription in the engine', () => {
  it('posts the WAV as OpenAI multipart with model, language and json, the key as a Bearer token, and returns the text', async () => {
    const { service, logText } = voice({ endpoint: server.url, model: 'base.en', language: 'en', api_key_env: 'STT_KEY' }, { STT_KEY: 'sk-voice-123' });
    const transcript = await service.transcribe(speech(2));
    expect(transcript).toEqual({ text: 'list the files here', seconds: 2, redactions: 0 });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.path).toBe('/v1/audio/transcriptions');
    expect(request!.authorization).toBe('Bearer sk-voice-123');
    expect(request!.fields).toEqual({ model: 'base.en', language: 'en', response_format: 'json' });
    expect(request!.file).toMatchObject({ name: 'speech.wav', type: 'audio/wav', bytes: 44 + 2 * 32_000, wav: { seconds: 2, sampleRate: 16_000, channels: 1 } });
    // The log says how long and where to, never the text, the key or the audio.
    const log = logText();
    expect(log).toContain(`transcribed 2.0 s of speech at ${new URL(server.url).host}`);
    expect(log).not.toContain('list the files');
    expect(log).not.toContain('sk-voice-123');
  });

  it('leaves language out when none is set, sends no key when none is named, and takes a base URL with a trailing slash', async () => {
    const { service } = voice({ endpoint: `${server.url}/` });
    await service.transcribe(speech(1));
    expect(server.requests[0]!.fields).toEqual({ model: 'whisper-1', response_format: 'json' });
    expect(server.requests[0]!.authorization).toBeUndefined();
    expect(server.requests[0]!.path).toBe('/v1/audio/transcriptions');
  });

  it('sends nothing anywhere while no endpoint is configured', async () => {
    const { service } = voice({ endpoint: '' });
    await expect(service.transcribe(speech(1))).rejects.toThrow(/Voice is not set up: set \[voice\] endpoint .*Nothing was sent/);
    expect(fetches).toEqual([]);
    expect(server.requests).toEqual([]);
  });

  it('sends nothing when the key variable is missing, the clip is not a WAV, or it is longer than max_seconds', async () => {
    await expect(voice({ endpoint: server.url, api_key_env: 'NOT_SET_HERE' }).service.transcribe(speech(1))).rejects.toThrow(/api_key_env names NOT_SET_HERE, which is not set/);
    await expect(voice({ endpoint: server.url }).service.transcribe(new TextEncoder().encode('webm bytes'))).rejects.toThrow(/not a WAV/);
    await expect(voice({ endpoint: server.url, max_seconds: 2 }).service.transcribe(speech(5))).rejects.toThrow(/5 s long, more than \[voice\] max_seconds \(2\)/);
    expect(fetches).toEqual([]);
  });

  it("scrubs secrets out of the transcript before anyone sees it, and hands it to the voice watchers' hook", async () => {
    server.script({ text: '  deploy with token ghp_Q8rYouRk2LmPz7Wd3XexAmPlE9tNb4Vc6Hj1  ' });
    const { service } = voice({ endpoint: server.url });
    const heard: string[] = [];
    service.voicePhraseHeard = (text) => heard.push(text);
    const transcript = await service.transcribe(speech(1));
    expect(transcript.text).not.toContain('ghp_Q8rYouRk2LmPz7Wd3XexAmPlE9tNb4Vc6Hj1');
    expect(transcript.text).toBe('deploy with token [REDACTED:github-token]');
    expect(transcript.redactions).toBe(1);
    expect(heard).toEqual([transcript.text]);
  });

  it('a failing watcher hook does not cost the transcript', async () => {
    const { service, logText } = voice({ endpoint: server.url });
    service.voicePhraseHeard = () => {
      throw new Error('watchers broke');
    };
    await expect(service.transcribe(speech(1))).resolves.toMatchObject({ text: 'list the files here' });
    expect(logText()).toContain('a voice watcher failed');
  });

  it('puts the three error shapes in words', async () => {
    server.script(
      { error: 'openai', status: 401, message: 'Incorrect API key provided: sk-wrong.' },
      { error: 'whisper', status: 400, message: 'failed to read WAV file' },
      { error: 'fastapi', status: 404, message: "Model 'whisper-1' is not installed locally." },
    );
    const { service } = voice({ endpoint: server.url });
    const host = new URL(server.url).host;
    await expect(service.transcribe(speech(1))).rejects.toThrow(`The transcription server at ${host} answered 401: Incorrect API key provided: sk-wrong. Check the key`);
    await expect(service.transcribe(speech(1))).rejects.toThrow(`answered 400: failed to read WAV file.`);
    await expect(service.transcribe(speech(1))).rejects.toThrow(/answered 404: Model 'whisper-1' is not installed locally\. Check \[voice\] endpoint and model/);
  });

  it('tries once more when the server is still loading (503), not more', async () => {
    server.script({ error: 'whisper', status: 503, message: 'loading model' }, { text: 'second time lucky' });
    const { service } = voice({ endpoint: server.url });
    await expect(service.transcribe(speech(1))).resolves.toMatchObject({ text: 'second time lucky' });
    server.script({ error: 'whisper', status: 503, message: 'loading model' }, { error: 'whisper', status: 503, message: 'still loading' }, { text: 'never asked' });
    await expect(service.transcribe(speech(1))).rejects.toThrow(/answered 503: still loading\. The server is not ready/);
    expect(server.requests).toHaveLength(4);
  });

  it('cuts a runaway transcript to 20,000 characters', async () => {
    server.script({ text: 'word '.repeat(10_000) });
    const transcript = await voice({ endpoint: server.url }).service.transcribe(speech(1));
    expect(transcript.text.length).toBeLessThanOrEqual(20_000);
    expect(transcript.text.startsWith('word word')).toBe(true);
  });

  it('says when the answer holds no transcript', async () => {
    server.script({ status: 200, body: '{"segments": []}' });
    await expect(voice({ endpoint: server.url }).service.transcribe(speech(1))).rejects.toThrow(/answered without a transcript/);
  });

  it('says when the server cannot be reached or does not answer in time', async () => {
    const port = await deadPort();
    await expect(voice({ endpoint: `http://127.0.0.1:${port}/v1` }).service.transcribe(speech(1))).rejects.toThrow(
      `Cannot reach the transcription server at 127.0.0.1:${port} (connection refused): is it running?`,
    );
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const silentPort = (silent.address() as { port: number }).port;
      await expect(voice({ endpoint: `http://127.0.0.1:${silentPort}/v1` }, {}, { timeoutMs: 300 }).service.transcribe(speech(1))).rejects.toThrow(`The transcription server at 127.0.0.1:${silentPort} did not answer within 0.3 s.`);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('reads an answer aloud through the speech endpoint, with the secrets scrubbed from what it sends', async () => {
    const { service } = voice({ speech_endpoint: server.url, speech_model: 'tts-1', voice: 'nova', api_key_env: 'K' }, { K: 'sk-speech' });
    const spoken = await service.speak('Your token is ghp_Q8rYouRk2LmPz7Wd3XexAmPlE9tNb4Vc6Hj1, keep it safe.');
    expect(spoken.mimeType).toBe('audio/wav');
    expect(Buffer.from(spoken.audio, 'base64').toString('ascii', 0, 4)).toBe('RIFF');
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/v1/audio/speech');
    expect(request.authorization).toBe('Bearer sk-speech');
    expect(request.fields).toMatchObject({ model: 'tts-1', voice: 'nova', response_format: 'mp3' });
    expect(String(request.fields.input)).not.toContain('ghp_Q8rYouRk2LmPz7Wd3XexAmPlE9tNb4Vc6Hj1');
    await expect(voice({ speech_endpoint: '' }).service.speak('hello')).rejects.toThrow(/No \[voice\] speech_endpoint/);
  });
});
