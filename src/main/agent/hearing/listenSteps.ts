import type { VoiceTranscript } from '../../../shared/voice';
import { VOICE_SAMPLE_RATE } from '../../../shared/voice';
import { WAV_HEADER_BYTES, writeWavHeader } from '../../../shared/wavHeader';
import type { ApprovalGate, GateDecision } from '../../safety/approval/approvalGate';
import type { StepEnd } from '../plan/planEvents';
import { audioAvailability, type AudioAvailability } from './audioAvailability';
import { applicationStream, type ApplicationStream } from './applicationStream';
import { describeSource, listenCommand, listenShape, shortSource, type ListenRequest } from './listenRequest';
import { recordWithParec, type ParecTarget, type Recording } from './parecRecording';
import { listSinkInputs } from './sinkInputs';

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
  record?: (target: ParecTarget, seconds: number, env: NodeJS.ProcessEnv, signal?: AbortSignal) => Promise<Recording>;
}

/** What parec records for a request, in words for the model ("the audio of firefox (stream #12)"), or why nothing can be. */
type Target = { ok: true; target: ParecTarget; heard: string } | { ok: false; reason: string };

/**
 * `listen` steps (docs/voice.md "listen"): the gate decides with `[approval.audio]`; a step
 * this system cannot run (no parec, no sound server, no `[voice] endpoint`, no stream of the
 * application named) is refused with the reason before anyone is asked. A step that runs
 * records with parec, wraps the samples in a WAV in memory, has the voice service transcribe
 * it, and drops the audio.
 */
export class ListenSteps {
  constructor(private readonly deps: ListenStepsDeps) {}

  /** The step's line: what is recorded, for how long, and where it is transcribed. */
  command(request: ListenRequest): string {
    return listenCommand(request, this.deps.transcriber.endpointHost());
  }

  async judge(request: ListenRequest, command: string): Promise<GateDecision> {
    const application = request.source === 'application' ? request.application : undefined;
    const decision = this.deps.gate.decideAudio({ command, source: request.source, application, shape: listenShape(request) });
    if (decision.decision === 'deny') return decision;
    const refuse = (rule: string): GateDecision => ({ ...decision, decision: 'deny', decidedBy: 'builtin', rule: `builtin: ${rule}` });
    const availability = await (this.deps.availability ?? audioAvailability)(this.deps.env);
    if (!availability.available) return refuse(`not available on this system (${availability.reason})`);
    if (!this.deps.transcriber.endpointHost()) return refuse('not available on this system (set [voice] endpoint to transcribe: docs/voice.md)');
    if (application !== undefined) {
      const target = await this.target(request);
      if (!target.ok) return refuse(`nothing to record (${target.reason})`);
    }
    return decision;
  }

  /**
   * What parec records. An application's stream is looked up when the step is judged and again
   * when it runs, since the one seen when it asked may have ended.
   */
  private async target(request: ListenRequest): Promise<Target> {
    if (request.source !== 'application') return { ok: true, target: { device: request.source === 'system' ? '@DEFAULT_MONITOR@' : '@DEFAULT_SOURCE@' }, heard: describeSource(request) };
    let found: ApplicationStream;
    try {
      found = applicationStream(await listSinkInputs(this.deps.env), request.application);
    } catch (error) {
      return { ok: false, reason: `the playing streams could not be listed: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (!found.found) return { ok: false, reason: found.reason };
    const which = found.playing > 1 ? `stream #${found.stream.index}, the newest of the ${found.playing} it plays` : `stream #${found.stream.index}`;
    return { ok: true, target: { sinkInput: found.stream.index }, heard: `the audio of ${request.application} (${which})` };
  }

  /** `signal`: Esc or a cancelled plan stops the recording; what was heard until then is still transcribed. */
  async run(request: ListenRequest, signal?: AbortSignal): Promise<Looked> {
    const target = await this.target(request);
    if (!target.ok) return { kind: 'looked', ok: false, content: `Not done: nothing to record: ${target.reason}.`, report: target.reason };
    const { heard } = target;
    let recording: Recording;
    try {
      recording = await (this.deps.record ?? recordWithParec)(target.target, request.seconds, this.deps.env, signal);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { kind: 'looked', ok: false, content: `Not done: ${message}`, report: message };
    }
    const seconds = recording.seconds.toFixed(1);
    const stopped = recording.stoppedEarly ? `stopped after ${seconds} s` : undefined;
    const ended = recording.streamEnded && request.source === 'application' ? `${request.application}'s stream ended after ${seconds} s` : undefined;
    if (recording.pcm.length === 0) {
      return { kind: 'looked', ok: false, interrupted: recording.stoppedEarly, content: `Not done: nothing was recorded from ${heard}${stopped ? ` (${stopped})` : ''}.`, report: stopped ?? 'nothing recorded' };
    }
    const wav = new Uint8Array(WAV_HEADER_BYTES + recording.pcm.length);
    writeWavHeader(wav, recording.pcm.length, VOICE_SAMPLE_RATE);
    wav.set(recording.pcm, WAV_HEADER_BYTES);
    try {
      const transcript = await this.deps.transcriber.transcribe(wav);
      const said = transcript.text ? `:\n${transcript.text}` : ': nothing was said (the transcript is empty).';
      const how = stopped ? `${stopped} (the user stopped it)` : ended ? `${seconds} s (then its stream ended)` : `${seconds} s`;
      return {
        kind: 'looked',
        ok: true,
        content: `Transcript of ${how} of ${heard}${said}`,
        report: stopped ?? ended ?? `heard ${seconds} s of ${shortSource(request)}`,
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
