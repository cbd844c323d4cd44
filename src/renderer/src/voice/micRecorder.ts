import workletUrl from './pcmCapture.worklet.ts?worker&url';
import { VOICE_SAMPLE_RATE } from '../../../shared/voice';
import { encodeWav } from './wavEncoder';

export interface Recording {
  wav: Uint8Array;
  seconds: number;
}

/** How often the level meter is read. */
const LEVEL_INTERVAL_MS = 50;
/** The longest the worklet's last samples are waited for once the microphone is off. */
const FLUSH_WAIT_MS = 250;

/**
 * One recording from the microphone: audio only, through an AudioWorklet that collects the
 * samples (16 kHz where the platform runs an AudioContext at that rate, resampled otherwise)
 * and an analyser for the level meter. `stop` turns the microphone off at once and gives the
 * WAV; `cancel` turns it off and drops everything.
 */
export class MicRecorder {
  private readonly chunks: Float32Array[] = [];
  private readonly levelTimer: number;
  private stopped = false;

  private constructor(
    private readonly stream: MediaStream,
    private readonly context: AudioContext,
    private readonly capture: AudioWorkletNode,
    analyser: AnalyserNode,
    onLevel: (level: number) => void,
  ) {
    capture.port.onmessage = (event: MessageEvent<Float32Array>) => this.chunks.push(event.data);
    const samples = new Float32Array(analyser.fftSize);
    this.levelTimer = window.setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      onLevel(Math.sqrt(sum / samples.length));
    }, LEVEL_INTERVAL_MS);
  }

  /** Asks for the microphone (the browser or OS may ask the user) and starts recording. */
  static async start(onLevel: (level: number) => void): Promise<MicRecorder> {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true }, video: false });
    let context: AudioContext | undefined;
    try {
      context = newAudioContext();
      await context.audioWorklet.addModule(workletUrl);
      const source = context.createMediaStreamSource(stream);
      const capture = new AudioWorkletNode(context, 'tandem-pcm-capture', { numberOfInputs: 1, numberOfOutputs: 0, channelCount: 1, channelCountMode: 'explicit' });
      const analyser = context.createAnalyser();
      analyser.fftSize = 1024;
      source.connect(capture);
      source.connect(analyser);
      return new MicRecorder(stream, context, capture, analyser, onLevel);
    } catch (error) {
      stopTracks(stream);
      void context?.close();
      throw error;
    }
  }

  /**
   * The microphone goes off now; the WAV follows once the worklet handed over its last
   * samples. It holds at most `maxSeconds`, however late the stop came.
   */
  async stop(maxSeconds: number): Promise<Recording> {
    this.release();
    await this.lastSamples();
    void this.context.close();
    const wav = encodeWav(firstSamples(this.chunks, Math.floor(maxSeconds * this.context.sampleRate)), this.context.sampleRate);
    return { wav, seconds: (wav.byteLength - 44) / 2 / VOICE_SAMPLE_RATE };
  }

  cancel(): void {
    this.release();
    this.chunks.length = 0;
    void this.context.close();
  }

  private release(): void {
    if (this.stopped) return;
    this.stopped = true;
    window.clearInterval(this.levelTimer);
    stopTracks(this.stream);
  }

  private lastSamples(): Promise<void> {
    return new Promise((resolve) => {
      const timer = window.setTimeout(resolve, FLUSH_WAIT_MS);
      this.capture.port.onmessage = (event: MessageEvent<Float32Array>) => {
        this.chunks.push(event.data);
        window.clearTimeout(timer);
        resolve();
      };
      this.capture.port.postMessage('flush');
    });
  }
}

function firstSamples(chunks: readonly Float32Array[], count: number): Float32Array[] {
  const kept: Float32Array[] = [];
  let left = count;
  for (const chunk of chunks) {
    if (left <= 0) break;
    kept.push(chunk.length <= left ? chunk : chunk.subarray(0, left));
    left -= chunk.length;
  }
  return kept;
}

function newAudioContext(): AudioContext {
  try {
    return new AudioContext({ sampleRate: 16_000 });
  } catch {
    // A platform that cannot run at 16 kHz records at its own rate; the encoder resamples.
    return new AudioContext();
  }
}

function stopTracks(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}
