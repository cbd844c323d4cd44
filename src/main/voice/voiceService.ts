import type { VoiceTranscript } from '../../shared/voice';
import type { VoiceSettings } from '../../shared/voiceSettings';
import type { EngineLog } from '../log/engineLog';
import { scrubSecrets } from '../safety/secretScrubber';
import { endpointHost } from './audioServerCall';
import { requestSpeech } from './speechClient';
import { requestTranscript } from './transcriptionClient';
import { readWavClip } from './wavClip';
import { VoiceError } from './voiceError';

export interface VoiceServiceOptions {
  settings: () => VoiceSettings;
  env: NodeJS.ProcessEnv;
  log: Pick<EngineLog, 'info' | 'error'>;
  /** Tests point this at a counting fetch; the engine uses the global one. */
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Wait before a 503's one retry. */
  retryAfterMs?: number;
}

/** A whisper server on a CPU may take a while for a long recording; longer than this is a hang. */
const TRANSCRIPTION_TIMEOUT_MS = 120_000;
const SPEECH_TIMEOUT_MS = 60_000;
/** A minute of speech is about a thousand characters; a server answering far more is cut (agent.send takes 100,000). */
const MAX_TRANSCRIPT_CHARS = 20_000;

/**
 * The engine's side of push-to-talk (docs/voice.md): a recording from the renderer goes to
 * `[voice] endpoint`, its transcript comes back scrubbed of secrets. Nothing is sent while no
 * endpoint is configured, the audio is never written anywhere, and the log gets the length
 * and the endpoint's host only. Spoken answers go through `[voice] speech_endpoint`.
 */
export class VoiceService {
  /**
   * Called with every transcript (scrubbed) once it is made: the hook for `voice` watchers
   * (issue 29), to be connected to the watchers service's `voicePhraseHeard(text)`. Its
   * failure is logged and never costs the user the transcript.
   */
  voicePhraseHeard: ((text: string) => void) | undefined;

  constructor(private readonly options: VoiceServiceOptions) {}

  async transcribe(wav: Uint8Array): Promise<VoiceTranscript> {
    const settings = this.options.settings();
    if (!settings.endpoint) {
      throw new VoiceError('Voice is not set up: set [voice] endpoint in config.toml to a transcription server (docs/voice.md). Nothing was sent.');
    }
    const clip = readWavClip(wav);
    if (clip.seconds > settings.max_seconds + 1) throw new VoiceError(`The recording is ${Math.round(clip.seconds)} s long, more than [voice] max_seconds (${settings.max_seconds}); nothing was sent.`);
    const raw = await requestTranscript({
      endpoint: settings.endpoint,
      model: settings.model,
      language: settings.language,
      apiKey: this.key(settings),
      wav,
      timeoutMs: this.options.timeoutMs ?? TRANSCRIPTION_TIMEOUT_MS,
      fetch: this.options.fetch,
      retryAfterMs: this.options.retryAfterMs,
    });
    const scrubbed = scrubSecrets(raw.trim().slice(0, MAX_TRANSCRIPT_CHARS));
    this.options.log.info('voice', `transcribed ${clip.seconds.toFixed(1)} s of speech at ${endpointHost(settings.endpoint)}`);
    const transcript = { text: scrubbed.text, seconds: clip.seconds, redactions: scrubbed.redactions.length };
    if (transcript.text) this.tellWatchers(transcript.text);
    return transcript;
  }

  /** An answer read aloud by `[voice] speech_endpoint`: its audio, in base64. */
  async speak(text: string): Promise<{ audio: string; mimeType: string }> {
    const settings = this.options.settings();
    if (!settings.speech_endpoint) throw new VoiceError('No [voice] speech_endpoint is set: answers are read by the system voice instead.');
    const { audio, mimeType } = await requestSpeech({
      endpoint: settings.speech_endpoint,
      model: settings.speech_model,
      voice: settings.voice,
      input: scrubSecrets(text).text,
      apiKey: this.key(settings),
      timeoutMs: this.options.timeoutMs ?? SPEECH_TIMEOUT_MS,
      fetch: this.options.fetch,
    });
    return { audio: Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength).toString('base64'), mimeType };
  }

  private key(settings: VoiceSettings): string | undefined {
    if (!settings.api_key_env) return undefined;
    const key = this.options.env[settings.api_key_env];
    if (!key) throw new VoiceError(`[voice] api_key_env names ${settings.api_key_env}, which is not set in Tandem's environment; nothing was sent.`);
    return key;
  }

  private tellWatchers(text: string): void {
    try {
      this.voicePhraseHeard?.(text);
    } catch (error) {
      this.options.log.error('voice', 'a voice watcher failed on a transcript', error);
    }
  }
}
