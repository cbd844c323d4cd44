import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioAvailability } from '../../../src/main/agent/hearing/audioAvailability';
import { ListenSteps } from '../../../src/main/agent/hearing/listenSteps';
import { endpointHost } from '../../../src/main/voice/audioServerCall';
import { VoiceService } from '../../../src/main/voice/voiceService';
import { DEFAULT_VOICE_SETTINGS } from '../../../src/shared/voiceSettings';
import { missingAudioPrograms, startPulseAudio, type PulseAudioServer } from '../../support/pulseAudio';
import { startTranscriptionServer, type TranscriptionServer, type WavFacts } from '../../support/transcriptionServer';
import { waitUntil } from '../../support/waitUntil';

// `listen` against a real PulseAudio: a private server with a null sink, speech from espeak-ng
// played into it with paplay, recorded from its monitor by the real parec, wrapped in a WAV and
// transcribed by the scripted server on loopback (which checks the WAV). Needs the apt
// packages pulseaudio, pulseaudio-utils and espeak-ng (.ci/run installs them).

const missing = missingAudioPrograms();
if (missing.length > 0) console.warn(`listen with PulseAudio: skipped, ${missing.join(', ')} not installed (apt: pulseaudio pulseaudio-utils espeak-ng)`);

describe.skipIf(missing.length > 0)('listen with a real PulseAudio null sink', () => {
  let pulse: PulseAudioServer;
  let env: NodeJS.ProcessEnv;
  let transcription: TranscriptionServer;

  beforeAll(async () => {
    pulse = await startPulseAudio();
    env = pulse.env;
    transcription = await startTranscriptionServer();
  });

  afterAll(async () => {
    pulse?.stop();
    await transcription?.close();
  });

  function listenSteps(): ListenSteps {
    const settings = { ...DEFAULT_VOICE_SETTINGS, endpoint: transcription.url };
    const voice = new VoiceService({ settings: () => settings, env, log: { info: () => undefined, error: () => undefined } });
    return new ListenSteps({
      gate: { decideAudio: () => ({ decision: 'ask', blocked: false, level: 'yellow', reasons: [], rule: 'default', decidedBy: 'default', command: 'listen', shape: 'listen to system audio' }) },
      transcriber: { endpointHost: () => endpointHost(transcription.url), transcribe: (wav) => voice.transcribe(wav) },
      env,
    });
  }

  /** parec is connected to the server (a source output exists): what is played from now on is heard. */
  async function recordingStarted(): Promise<void> {
    await waitUntil(() => pulse.recording(), 'parec to connect');
  }

  it('is available here, and records what the speakers play, transcribed at the endpoint; the secret in the transcript is scrubbed', async () => {
    expect(await audioAvailability(env)).toEqual({ available: true });
    transcription.script({ text: 'list the files here, token ghp_R8xk2Lq9ZpT4vN7mW3cY6bH1jF5dS0aE2gK8' });
    const listen = listenSteps();
    const running = listen.run({ source: 'system', seconds: 4 });
    await recordingStarted();
    pulse.play();
    const end = await running;
    // The limit is wall-clock time; the audio is what the server sent in it (an idle null sink sends less).
    expect(end).toMatchObject({ kind: 'looked', ok: true, report: expect.stringMatching(/^heard \d\.\d s of system audio$/) });
    const heard = Number(/heard (\d\.\d) s/.exec(end.report)![1]);
    expect(heard).toBeGreaterThan(1);
    expect(heard).toBeLessThanOrEqual(4);
    expect(end.content).toMatch(/^Transcript of \d\.\d s of system audio \(what your speakers play\):\nlist the files here, token /);
    expect(end.content).not.toContain('ghp_R8xk2Lq9ZpT4vN7mW3cY6bH1jF5dS0aE2gK8');
    const wav = transcription.requests.at(-1)!.file!.wav as WavFacts;
    expect(wav).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
    expect(wav.seconds).toBeCloseTo(heard, 1);
    // The speech was heard: a null sink's monitor is exact zeros without it.
    expect(wav.rms).toBeGreaterThan(0.01);
    // parec is gone once the step ends.
    expect(pulse.recording()).toBe(false);
  });

  it('Esc stops the recording: the step says "stopped after N s" and what was heard is still transcribed', async () => {
    const before = transcription.requests.length;
    const stop = new AbortController();
    const running = listenSteps().run({ source: 'system', seconds: 60 }, stop.signal);
    await recordingStarted();
    pulse.play();
    stop.abort();
    const end = await running;
    expect(end.ok).toBe(true);
    expect(end.report).toMatch(/^stopped after \d+\.\d s$/);
    const seconds = Number(/stopped after (\d+\.\d) s/.exec(end.report)![1]);
    expect(seconds).toBeLessThan(60);
    expect(end.content).toContain(`stopped after ${seconds.toFixed(1)} s (the user stopped it)`);
    expect(transcription.requests.length).toBe(before + 1);
    expect((transcription.requests.at(-1)!.file!.wav as WavFacts).seconds).toBeCloseTo(seconds, 1);
  });
});
