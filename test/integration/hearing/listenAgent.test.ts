import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EngineClient } from '../../support/engineClient';
import { planIdOf, toolResults, waitForIdleWithAnswer, waitForStep } from '../../support/agentConversation';
import { useAgentEngine } from '../../support/agentEngine';
import { missingAudioPrograms, startPulseAudio, type PulseAudioServer } from '../../support/pulseAudio';
import { startTranscriptionServer, type TranscriptionServer, type WavFacts } from '../../support/transcriptionServer';

// The agent's `listen` through the engine: the scripted model asks to listen, the plan's card
// says what is recorded, for how long and where it is transcribed; approved, the real parec
// records a private PulseAudio null sink while espeak-ng's speech plays into it, and the
// transcript reaches the model. A policy's deny refuses it without asking, and nothing records.
// One application's stream likewise: the card names it, a session grant covers it alone, and an
// application that plays nothing is refused with the names of those that play.

const missing = missingAudioPrograms();
const open = useAgentEngine();

describe.skipIf(missing.length > 0)(`the agent listens${missing.length > 0 ? ` (skipped: ${missing.join(', ')} not installed)` : ''}`, () => {
  let pulse: PulseAudioServer;
  let transcription: TranscriptionServer;

  beforeAll(async () => {
    pulse = await startPulseAudio();
    transcription = await startTranscriptionServer();
  });

  afterAll(async () => {
    pulse?.stop();
    await transcription?.close();
  });

  const playing: { stop(): void }[] = [];
  afterEach(() => {
    for (const player of playing.splice(0)) player.stop();
  });

  const listenCall = { parts: [{ toolUse: { id: 'l1', name: 'listen', input: { source: 'system', seconds: 3, purpose: 'hear the alert' } } }] };

  async function openWith(systemPolicyToml?: string): Promise<{ client: EngineClient; model: Awaited<ReturnType<typeof open>>['model']; paneId: number }> {
    return open({ env: pulse.env, configToml: `[voice]\nendpoint = "${transcription.url}"\n`, systemPolicyToml });
  }

  it('asks with a card naming the source, the time and the endpoint; approved, the transcript of what played reaches the model', async () => {
    const { client, model, paneId } = await openWith();
    model.script(listenCall, { parts: [{ text: 'It said to list the files.' }] });
    await client.request('agent.send', { text: 'what did that alert say?', attachments: [], paneId });
    const step = await waitForStep(client, (candidate) => candidate.status === 'proposed' && candidate.approval?.decision === 'ask', 'the listen step asking');
    expect(step.kind).toBe('listen');
    expect(step.command).toBe(`listen: record system audio (what your speakers play) for 3 s, transcribed at ${new URL(transcription.url).host}`);
    expect(pulse.recording()).toBe(false);
    const before = transcription.requests.length;

    await client.request('agent.step', { planId: planIdOf(client), stepId: step.id, action: 'approve' });
    await client.waitFor(() => pulse.recording(), 15_000, 'parec to record');
    pulse.play();
    await waitForIdleWithAnswer(client, 'It said to list the files.');

    const [result] = toolResults(await model.waitForRequest(2));
    expect(result).toMatchObject({ tool_use_id: 'l1' });
    expect(String(result!.content)).toMatch(/^Transcript of \d\.\d s of system audio \(what your speakers play\):\nlist the files here/);
    expect(transcription.requests.length).toBe(before + 1);
    expect((transcription.requests.at(-1)!.file!.wav as WavFacts).rms).toBeGreaterThan(0.01);
    expect(pulse.recording()).toBe(false);
  });

  it('[approval.audio] system_audio = "deny": refused without asking; nothing is recorded or sent', async () => {
    const { client, model, paneId } = await openWith('[approval.audio]\nsystem_audio = "deny"\n');
    const before = transcription.requests.length;
    model.script(listenCall, { parts: [{ text: 'I cannot listen here.' }] });
    await client.request('agent.send', { text: 'what did that alert say?', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'I cannot listen here.');
    const [result] = toolResults(await model.waitForRequest(2));
    expect(String(result!.content)).toContain('system_audio = "deny"');
    expect(pulse.recording()).toBe(false);
    expect(transcription.requests.length).toBe(before);
  });

  const listenTo = (id: string, application: string) => ({ parts: [{ toolUse: { id, name: 'listen', input: { source: 'application', application, seconds: 2, purpose: 'hear the video' } } }] });
  const card = (application: string) => `listen: record the audio of ${application} (one application's stream) for 2 s, transcribed at ${new URL(transcription.url).host}`;

  it("an application's stream: the card names the application; Allow for this session covers that application only", async () => {
    playing.push(await pulse.playAs('tandem-video', pulse.longSpeech), await pulse.playAs('tandem-music', pulse.tone));
    const { client, model, paneId } = await openWith();
    model.script(listenTo('a1', 'tandem-video'), listenTo('a2', 'tandem-video'), listenTo('a3', 'tandem-music'), { parts: [{ text: 'The video says to list the files.' }] });
    await client.request('agent.send', { text: 'what does the video say?', attachments: [], paneId });
    const first = await waitForStep(client, (step) => step.status === 'proposed' && step.approval?.decision === 'ask', 'the first listen step asking');
    expect(first).toMatchObject({ kind: 'listen', command: card('tandem-video') });
    const before = transcription.requests.length;
    await client.request('agent.step', { planId: planIdOf(client), stepId: first.id, action: 'allow-session' });

    // The second recording of tandem-video runs without asking; tandem-music asks.
    const music = await waitForStep(client, (step) => step.command === card('tandem-music') && step.status === 'proposed' && step.approval?.decision === 'ask', 'the tandem-music step asking');
    expect(transcription.requests.length).toBe(before + 2);
    const [second] = toolResults(await model.waitForRequest(3));
    expect(second).toMatchObject({ tool_use_id: 'a2' });
    expect(String(second!.content)).toMatch(/^Transcript of \d\.\d s of the audio of tandem-video \(stream #\d+\):\nlist the files here/);
    // What was sent was the video's speech, not the music's tone (rms about 0.35).
    for (const request of transcription.requests.slice(before)) {
      const wav = request.file!.wav as WavFacts;
      expect(wav.rms).toBeGreaterThan(0.01);
      expect(wav.rms).toBeLessThan(0.2);
    }

    await client.request('agent.step', { planId: planIdOf(client), stepId: music.id, action: 'deny' });
    await waitForIdleWithAnswer(client, 'The video says to list the files.');
    expect(transcription.requests.length).toBe(before + 2);
    expect(pulse.recording()).toBe(false);
  });

  it('an application that is not playing: refused without asking, and the model is told what is playing', async () => {
    playing.push(await pulse.playAs('tandem-video', pulse.longSpeech));
    const { client, model, paneId } = await openWith();
    const before = transcription.requests.length;
    model.script(listenTo('n1', 'vlc'), { parts: [{ text: 'VLC is not playing.' }] });
    await client.request('agent.send', { text: 'what does vlc play?', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'VLC is not playing.');
    const [result] = toolResults(await model.waitForRequest(2));
    expect(String(result!.content)).toContain('vlc is not playing anything (playing now: tandem-video)');
    expect(transcription.requests.length).toBe(before);
  });

  it('[approval.audio] application = "deny": refused without asking; nothing is recorded or sent', async () => {
    playing.push(await pulse.playAs('tandem-video', pulse.longSpeech));
    const { client, model, paneId } = await openWith('[approval.audio]\napplication = "deny"\n');
    const before = transcription.requests.length;
    model.script(listenTo('d1', 'tandem-video'), { parts: [{ text: 'I may not listen to applications.' }] });
    await client.request('agent.send', { text: 'what does the video say?', attachments: [], paneId });
    await waitForIdleWithAnswer(client, 'I may not listen to applications.');
    const [result] = toolResults(await model.waitForRequest(2));
    expect(String(result!.content)).toContain('application = "deny"');
    expect(pulse.recording()).toBe(false);
    expect(transcription.requests.length).toBe(before);
  });
});
