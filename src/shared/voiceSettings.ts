import { z } from 'zod';
import { ENV_NAME_PATTERN } from './environmentName';
import { keyChordProblem } from './keyChord';

/**
 * `[voice]` in config.toml: push-to-talk through an OpenAI-compatible transcription endpoint,
 * and spoken answers (docs/voice.md). Declared apart from settings.ts, which gathers it.
 */

/** The longest recording, in seconds: 120 s of 16 kHz mono 16-bit WAV is 3.84 MB, under the transports' 4 MB message. */
export const MAX_RECORDING_SECONDS = 120;

const endpointUrl = z
  .string()
  .max(2_000)
  .refine((text) => text === '' || /^https?:\/\/[^/\s]+(\/\S*)?$/.test(text), 'must be an http:// or https:// base URL (such as http://127.0.0.1:8080/v1), or empty');

export const voiceFields = {
  /** Base URL of an OpenAI-compatible speech-to-text server; `/audio/transcriptions` is added. Empty: voice is off, nothing is recorded or sent. */
  endpoint: endpointUrl,
  /** Always sent (whisper.cpp ignores it; OpenAI and speaches need it). */
  model: z.string().min(1, 'name the transcription model (whisper-1 when the server ignores it)').max(200),
  /** ISO-639-1 code of the spoken language, or empty: the server guesses. */
  language: z.union([z.literal(''), z.string().regex(/^[a-z]{2,3}$/, 'an ISO-639-1 language code such as "en", or empty')]),
  /** The environment variable holding the endpoint's key (sent as a Bearer token); empty: no key. */
  api_key_env: z.union([z.literal(''), z.string().regex(ENV_NAME_PATTERN, 'an environment variable name')]),
  /** The push-to-talk key; empty: Ctrl+Shift+M (Cmd+Shift+M on macOS). */
  push_to_talk_key: z
    .string()
    .max(60)
    .superRefine((chord, context) => {
      const problem = chord === '' ? undefined : keyChordProblem(chord);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
  /** `hold`: records while the key is held; `toggle`: one press starts, the next stops. */
  push_to_talk_mode: z.enum(['hold', 'toggle']),
  /** `review`: the transcript waits in the AI input (Enter sends, Esc discards); `immediately`: it is sent at once. */
  send: z.enum(['review', 'immediately']),
  /** A recording stops by itself after this many seconds. */
  max_seconds: z.number().int().min(1).max(MAX_RECORDING_SECONDS),
  /** The agent's final answers are read aloud. */
  speak_answers: z.boolean(),
  /** Base URL of an OpenAI-compatible `/audio/speech` server; empty: the system's speech synthesis. */
  speech_endpoint: endpointUrl,
  /** The speech model that endpoint uses. */
  speech_model: z.string().min(1).max(200),
  /** The voice that endpoint speaks with. */
  voice: z.string().min(1).max(100),
};

export const VoiceSection = z.object(voiceFields).strict();
export type VoiceSettings = z.infer<typeof VoiceSection>;

export const DEFAULT_VOICE_SETTINGS: VoiceSettings = {
  endpoint: '',
  model: 'whisper-1',
  language: '',
  api_key_env: '',
  push_to_talk_key: '',
  push_to_talk_mode: 'hold',
  send: 'review',
  max_seconds: 60,
  speak_answers: false,
  speech_endpoint: '',
  speech_model: 'tts-1',
  voice: 'alloy',
};
