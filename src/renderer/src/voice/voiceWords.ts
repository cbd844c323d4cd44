/** What the microphone button says while voice is not set up (docs/voice.md has the long version). */
export const VOICE_SETUP_TEXT =
  'Voice is not set up: nothing is recorded or sent until Settings → Voice (or [voice] endpoint in config.toml) names an OpenAI-compatible transcription server. ' +
  'Local: whisper.cpp (whisper-server -m ggml-base.en.bin --port 8080 --inference-path /v1/audio/transcriptions, then endpoint = "http://127.0.0.1:8080/v1") ' +
  'or speaches (endpoint = "http://127.0.0.1:8000/v1", model = a model it has). ' +
  'Cloud: endpoint = "https://api.openai.com/v1" with api_key_env = "OPENAI_API_KEY". See docs/voice.md.';

/** A getUserMedia failure in words, with the way out. */
export function microphoneProblem(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'The microphone is not allowed for Tandem. Browser mode: allow it with the icon in the address bar. macOS: System Settings → Privacy & Security → Microphone.';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'No microphone was found.';
    case 'NotReadableError':
    case 'AbortError':
      return 'The microphone could not be opened (another program may hold it).';
    default:
      return `The microphone could not be used: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** 0:07, 1:02 */
export function elapsedText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
