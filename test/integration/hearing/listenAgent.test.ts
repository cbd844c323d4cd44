import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineClient } from '../../support/engineClient';
import { planIdOf, toolResults, waitForIdleWithAnswer, waitForStep } from '../../support/agentConversation';
import { useAgentEngine } from '../../support/agentEngine';
import { missingAudioPrograms, startPulseAudio, type PulseAudioServer } from '../../support/pulseAudio';
import { startTranscriptionServer, type TranscriptionServer, type WavFacts } from '../../support/transcriptionServer';

// The agent's `listen` through the engine: the scripted model asks to listen, the plan's card
// says what is recorded, for how long and where it is transcribed; approved, the real parec
// records a private PulseAudio null sink while espeak-ng's speech plays into it, and the
// transcript reaches the model. A policy's deny refuses it without asking, and nothing records.

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
});
