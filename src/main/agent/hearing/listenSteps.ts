import type { VoiceTranscript } from '../../../shared/voice';
import { VOICE_SAMPLE_RATE } from '../../../shared/voice';
import { WAV_HEADER_BYTES, writeWavHeader } from '../../../shared/wavHeader';
import type { ApprovalGate, GateDecision } from '../../safety/approval/approvalGate';
import type { StepEnd } from '../plan/planEvents';
import { audioAvailability, type AudioAvailability } from './audioAvailability';
import { describeSource, listenCommand, listenShape, type ListenRequest } from './listenRequest';
import { recordWithParec, type Recording } from './parecRecording';

type Looked = Extract<StepEnd, { kind: 'looked' }>;

/** Where recordings are transcribed: the voice service's endpoint and client (src/main/voice). */
export interface ListenTranscriber {
  /** `[voice] endpoint`'s host, or undefined when none is set. */
  endpointHost(): string | undefined;
  transcribe(wav: Uint8Array): Promise<VoiceTranscript>;
}

export interface ListenStepsDeps {
  gate: Pick<ApprovalGate, 'decideAudio'>;
  transcriber: ListenTranscriber;
  env: NodeJS.ProcessEnv;
  /** Tests count how often it is asked. */
  availability?: (env: NodeJS.ProcessEnv) => Promise<AudioAvailability>;
  record?: (request: ListenRequest, env: NodeJS.ProcessEnv, signal?: AbortSignal) => Promise<Recording>;
}

/**
 * `listen` steps (docs/voice.md "listen"): the gate decides with `[approval.audio]`; a step
 * this system cannot run (no parec, no sound server, no `[voice] endpoint`) is refused with
 * the reason before anyone is asked. A step that runs records with parec, wraps the samples
 * in a WAV in memory, has the voice service transcribe it, and drops the audio.
 */
export class ListenSteps {
  constructor(private readonly deps: ListenStepsDeps) {}

  /** The step's line: what is recorded, for how long, and where it is transcribed. */
  command(request: ListenRequest): string {
    return listenCommand(request, this.deps.transcriber.endpointHost());
  }

  async judge(request: ListenRequest, command: string): Promise<GateDecision> {
    const decision = this.deps.gate.decideAudio({ command, source: request.source, shape: listenShape(request) });
    if (decision.decision === 'deny') return decision;
    const refuse = (why: string): GateDecision => ({ ...decision, decision: 'deny', decidedBy: 'builtin', rule: `builtin: not available on this system (${why})` });
    const availability = await (this.deps.availability ?? audioAvailability)(this.deps.env);
    if (!availability.available) return refuse(availability.reason);
    if (!this.deps.transcriber.endpointHost()) return refuse('set [voice] endpoint to transcribe: docs/voice.md');
    return decision;
  }

  /** `signal`: Esc or a cancelled plan stops the recording; what was heard until then is still transcribed. */
  async run(request: ListenRequest, signal?: AbortSignal): Promise<Looked> {
    const heard = describeSource(request.source);
    let recording: Recording;
    try {
      recording = await (this.deps.record ?? recordWithParec)(request, this.deps.env, signal);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { kind: 'looked', ok: false, content: `Not done: ${message}`, report: message };
    }
    const seconds = recording.seconds.toFixed(1);
    const stopped = recording.stoppedEarly ? `stopped after ${seconds} s` : undefined;
    if (recording.pcm.length === 0) {
      return { kind: 'looked', ok: false, interrupted: recording.stoppedEarly, content: `Not done: nothing was recorded from ${heard}${stopped ? ` (${stopped})` : ''}.`, report: stopped ?? 'nothing recorded' };
    }
    const wav = new Uint8Array(WAV_HEADER_BYTES + recording.pcm.length);
    writeWavHeader(wav, recording.pcm.length, VOICE_SAMPLE_RATE);
    wav.set(recording.pcm, WAV_HEADER_BYTES);
    try {
      const transcript = await this.deps.transcriber.transcribe(wav);
      const said = transcript.text ? `:\n${transcript.text}` : ': nothing was said (the transcript is empty).';
      const how = stopped ? `${stopped} (the user stopped it)` : `${seconds} s`;
      return {
        kind: 'looked',
        ok: true,
        content: `Transcript of ${how} of ${heard}${said}`,
        report: stopped ?? `heard ${seconds} s of ${request.source === 'microphone' ? 'the microphone' : 'system audio'}`,
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { kind: 'looked', ok: false, content: `Not done: ${seconds} s were recorded but not transcribed: ${message}`, report: message };
    } finally {
      wav.fill(0);
      recording.pcm.fill(0);
    }
  }
}
