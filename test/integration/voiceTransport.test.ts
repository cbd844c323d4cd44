import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeWav } from '../../src/renderer/src/voice/wavEncoder';
import { useEngineClient } from '../support/engineClient';
import { startTranscriptionServer, type TranscriptionServer } from '../support/transcriptionServer';

const speech = (seconds: number) => encodeWav([Float32Array.from({ length: seconds * 16_000 }, (_, index) => 0.3 * Math.sin(index / 7))], 16_000);

let stt: TranscriptionServer;
beforeEach(async () => {
  stt = await startTranscriptionServer();
});
afterEach(() => stt.close());

const { open } = useEngineClient();

describe('push-to-talk over the browser-mode transport', () => {
  it('a VoiceClip frame and its voice.transcribe reach the endpoint; the transcript comes back', async () => {
    const { client } = await open({ configToml: `[voice]\nendpoint = "${stt.url}"\nlanguage = "en"\n` });
    client.sendVoiceClip(7, speech(1.5));
    await expect(client.request('voice.transcribe', { clipId: 7 })).resolves.toEqual({ text: 'list the files here', seconds: 1.5, redactions: 0 });
    expect(stt.requests).toHaveLength(1);
    expect(stt.requests[0]!.file?.wav).toMatchObject({ seconds: 1.5, sampleRate: 16_000 });
    // A clip is taken once: asking again for it is a clear error, and nothing more is sent.
    await expect(client.request('voice.transcribe', { clipId: 7 })).rejects.toThrow('The recording did not reach the engine; try again.');
    expect(stt.requests).toHaveLength(1);
  });

  it('the server error reaches the renderer in words; an endpoint removed from config.toml means nothing is sent', async () => {
    const { client } = await open({ configToml: `[voice]\nendpoint = "${stt.url}"\n` });
    stt.script({ error: 'openai', status: 400, message: 'Audio file is too short.' });
    client.sendVoiceClip(1, speech(1));
    await expect(client.request('voice.transcribe', { clipId: 1 })).rejects.toThrow(/answered 400: Audio file is too short\./);
    await client.request('settings.update', { voice: { endpoint: '' } });
    client.sendVoiceClip(2, speech(1));
    await expect(client.request('voice.transcribe', { clipId: 2 })).rejects.toThrow(/Voice is not set up/);
    expect(stt.requests).toHaveLength(1);
  });

  it('refuses a malformed request without touching the endpoint', async () => {
    const { client } = await open({ configToml: `[voice]\nendpoint = "${stt.url}"\n` });
    await expect(client.request('voice.transcribe', { clipId: -1 } as never)).rejects.toThrow(/Invalid voice.transcribe request/);
    await expect(client.request('voice.speak', { text: '   ' } as never)).rejects.toThrow(/Invalid voice.speak request/);
    expect(stt.requests).toHaveLength(0);
  });
});
