import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ListenSteps } from '../../../src/main/agent/hearing/listenSteps';
import { listSinkInputs, sinkInputsFromJson, sinkInputsFromText } from '../../../src/main/agent/hearing/sinkInputs';
import { decideAudio } from '../../../src/main/safety/approval/audioDecision';
import { SessionGrants } from '../../../src/main/safety/approval/sessionGrants';
import { endpointHost } from '../../../src/main/voice/audioServerCall';
import { VoiceService } from '../../../src/main/voice/voiceService';
import { DEFAULT_VOICE_SETTINGS } from '../../../src/shared/voiceSettings';
import { missingAudioPrograms, startPulseAudio, type PulseAudioServer } from '../../support/pulseAudio';
import { startTranscriptionServer, type TranscriptionServer, type WavFacts } from '../../support/transcriptionServer';
import { waitUntil } from '../../support/waitUntil';

// `listen` on one application's stream against a real PulseAudio: a private server with a null
// sink, applications played into it with paplay under names of their own, one stream found by
// the real pactl and recorded alone by the real parec (--monitor-stream), transcribed by the
// scripted server on loopback. Another application's tone, loud on the system monitor, must not
// be in the recording. Needs the apt packages pulseaudio, pulseaudio-utils and espeak-ng.

const missing = missingAudioPrograms();
if (missing.length > 0) console.warn(`listen to an application: skipped, ${missing.join(', ')} not installed (apt: pulseaudio pulseaudio-utils espeak-ng)`);

describe.skipIf(missing.length > 0)("listen to one application's stream on a real PulseAudio", () => {
  let pulse: PulseAudioServer;
  let transcription: TranscriptionServer;
  const playing: { stop(): void }[] = [];

  beforeAll(async () => {
    pulse = await startPulseAudio();
    transcription = await startTranscriptionServer();
  });

  afterEach(() => {
    for (const player of playing.splice(0)) player.stop();
  });

  afterAll(async () => {
    pulse?.stop();
    await transcription?.close();
  });

  async function play(application: string, wav: string): Promise<void> {
    playing.push(await pulse.playAs(application, wav));
  }

  function listenSteps(): ListenSteps {
    const settings = { ...DEFAULT_VOICE_SETTINGS, endpoint: transcription.url };
    const voice = new VoiceService({ settings: () => settings, env: pulse.env, log: { info: () => undefined, error: () => undefined } });
    return new ListenSteps({
      gate: { decideAudio: (proposed) => decideAudio([], new SessionGrants(), proposed) },
      transcriber: { endpointHost: () => endpointHost(transcription.url), transcribe: (wav) => voice.transcribe(wav) },
      env: pulse.env,
    });
  }

  function lastWav(): WavFacts {
    return transcription.requests.at(-1)!.file!.wav as WavFacts;
  }

  it("pactl's JSON and its text name the same streams, and listSinkInputs reads them", async () => {
    await play('tandem-speaker', pulse.longSpeech);
    await play('tandem-tone', pulse.tone);
    const text = sinkInputsFromText(execFileSync('pactl', ['list', 'sink-inputs'], { env: { ...pulse.env, LC_ALL: 'C' }, encoding: 'utf8' }));
    const json = sinkInputsFromJson(execFileSync('pactl', ['-f', 'json', 'list', 'sink-inputs'], { env: pulse.env, encoding: 'utf8' }));
    expect(json).toEqual(text);
    expect(await listSinkInputs(pulse.env)).toEqual(json);
    expect(json.map((stream) => [stream.name, stream.binary, stream.corked])).toEqual([
      ['tandem-speaker', 'pacat', false],
      ['tandem-tone', 'pacat', false],
    ]);
  });

  it('asks, then records only the application named (any case), and its speech is transcribed', async () => {
    await play('tandem-speaker', pulse.longSpeech);
    await play('tandem-tone', pulse.tone);
    transcription.script({ text: 'list the files here' });
    const listen = listenSteps();
    const request = { source: 'application', application: 'Tandem-Speaker', seconds: 3 } as const;
    const command = listen.command(request);
    expect(command).toBe(`listen: record the audio of Tandem-Speaker (one application's stream) for 3 s, transcribed at ${endpointHost(transcription.url)}`);
    expect(await listen.judge(request, command)).toMatchObject({ decision: 'ask', shape: 'listen to the audio of tandem-speaker' });
    const end = await listen.run(request);
    expect(end).toMatchObject({ ok: true, report: expect.stringMatching(/^heard \d\.\d s of Tandem-Speaker$/) });
    expect(end.content).toMatch(/^Transcript of \d\.\d s of the audio of Tandem-Speaker \(stream #\d+\):\nlist the files here$/);
    expect(lastWav()).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
    expect(lastWav().seconds).toBeGreaterThan(1);
    expect(lastWav().rms).toBeGreaterThan(0.01);
    expect(pulse.recording()).toBe(false);
  });

  it("another application's tone is not in the recording: a silent application records silence while the system monitor hears the tone", async () => {
    await play('tandem-quiet', pulse.silence);
    await play('tandem-tone', pulse.tone);
    const listen = listenSteps();
    expect((await listen.run({ source: 'application', application: 'tandem-quiet', seconds: 2 })).ok).toBe(true);
    const quiet = lastWav();
    expect(quiet.seconds).toBeGreaterThan(1);
    expect(quiet.rms).toBeLessThan(0.001);
    // The same moment on the system monitor: the tone (amplitude 0.49, rms about 0.35) is there.
    expect((await listen.run({ source: 'system', seconds: 2 })).ok).toBe(true);
    expect(lastWav().rms).toBeGreaterThan(0.2);
  });

  it('of several streams of the application, the newest is recorded, and the result says so', async () => {
    await play('tandem-twice', pulse.silence);
    await play('tandem-twice', pulse.tone);
    const newest = Math.max(...(await listSinkInputs(pulse.env)).filter((stream) => stream.name === 'tandem-twice').map((stream) => stream.index));
    const end = await listenSteps().run({ source: 'application', application: 'tandem-twice', seconds: 2 });
    expect(end.content).toContain(`(stream #${newest}, the newest of the 2 it plays)`);
    // The newest plays the tone, the older one silence.
    expect(lastWav().rms).toBeGreaterThan(0.2);
  });

  it('an application that is not playing: refused before asking, naming the applications that are; nothing records', async () => {
    await play('tandem-speaker', pulse.longSpeech);
    const listen = listenSteps();
    const request = { source: 'application', application: 'vlc', seconds: 3 } as const;
    const before = transcription.requests.length;
    const decision = await listen.judge(request, listen.command(request));
    expect(decision).toMatchObject({ decision: 'deny', decidedBy: 'builtin', rule: 'builtin: nothing to record (vlc is not playing anything (playing now: tandem-speaker))' });
    expect(pulse.recording()).toBe(false);
    expect(transcription.requests.length).toBe(before);
  });

  it('the application stops playing while it is recorded: what was heard is transcribed, and the step says its stream ended', async () => {
    // The long speech (about 13 s) ends on its own, well inside the 30 s asked for.
    await play('tandem-short', pulse.longSpeech);
    const end = await listenSteps().run({ source: 'application', application: 'tandem-short', seconds: 30 });
    expect(end).toMatchObject({ ok: true, report: expect.stringMatching(/^tandem-short's stream ended after \d+\.\d s$/) });
    expect(end.content).toMatch(/^Transcript of \d+\.\d s \(then its stream ended\) of the audio of tandem-short \(stream #\d+\):/);
    expect(lastWav().seconds).toBeGreaterThan(1);
    expect(lastWav().seconds).toBeLessThan(15);
  });

  it('Esc stops it as it stops system audio: "stopped after N s", and what was heard is still transcribed', async () => {
    await play('tandem-speaker', pulse.longSpeech);
    const stop = new AbortController();
    const before = transcription.requests.length;
    const running = listenSteps().run({ source: 'application', application: 'tandem-speaker', seconds: 60 }, stop.signal);
    await waitUntil(() => pulse.recording(), 'parec to connect');
    // Another client's speech, played to its end (about 1.5 s): the application's stream has played meanwhile.
    pulse.play();
    stop.abort();
    const end = await running;
    expect(end).toMatchObject({ ok: true, report: expect.stringMatching(/^stopped after \d+\.\d s$/) });
    expect(transcription.requests.length).toBe(before + 1);
  });
});
