/** A voice problem the user can act on (set up the endpoint, set the key, start the server); its message says how. */
export class VoiceError extends Error {
  override name = 'VoiceError';
}
