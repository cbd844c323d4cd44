import { z } from 'zod';

/**
 * Push-to-talk between the renderer and the engine (docs/voice.md). The renderer records and
 * encodes a 16 kHz mono WAV, sends it as a binary `VoiceClip` frame (protocol.ts) whose
 * pane field carries the clip's id, then asks `voice.transcribe` for that id; the engine posts
 * it to the configured endpoint. The endpoint's key never leaves the engine.
 */

/** The sample rate of every recording sent (what whisper models take). */
export const VOICE_SAMPLE_RATE = 16_000;

/** The most characters of an answer read aloud in one go (OpenAI's `/audio/speech` limit). */
export const MAX_SPOKEN_CHARS = 4_096;

export const VoiceRequestSchemas = {
  /** Transcribe the clip sent just before as a VoiceClip frame with this id. */
  'voice.transcribe': z.object({ clipId: z.number().int().nonnegative().max(0xffff_ffff) }).strict(),
  /** An answer to read aloud through `[voice] speech_endpoint`. */
  'voice.speak': z.object({ text: z.string().trim().min(1).max(MAX_SPOKEN_CHARS) }).strict(),
} as const;

export interface VoiceTranscript {
  /** Scrubbed of secrets. */
  text: string;
  /** Length of the recording. */
  seconds: number;
  /** Secrets taken out of the text (what they were is not said). */
  redactions: number;
}

export interface VoiceResults {
  'voice.transcribe': VoiceTranscript;
  /** The spoken answer: audio bytes in base64, as the speech server sent them. */
  'voice.speak': { audio: string; mimeType: string };
}
