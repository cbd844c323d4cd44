/** What the model asked to hear: the microphone or what the speakers play, for a number of seconds. */
export interface ListenRequest {
  source: 'microphone' | 'system';
  /** 1 to 60. */
  seconds: number;
}

export const LISTEN_MAX_SECONDS = 60;

/** The source in words, for the card and the model. */
export function describeSource(source: ListenRequest['source']): string {
  return source === 'microphone' ? 'the microphone' : 'system audio (what your speakers play)';
}

/** The step's line on its card and in the audit trail: what is recorded, for how long, and where it goes. */
export function listenCommand(request: ListenRequest, transcribedAt: string | undefined): string {
  const where = transcribedAt ? `, transcribed at ${transcribedAt}` : '';
  return `listen: record ${describeSource(request.source)} for ${request.seconds} s${where}`;
}

/** The kind a grant "for this session" covers. */
export function listenShape(request: ListenRequest): string {
  return `listen to ${request.source === 'microphone' ? 'the microphone' : 'system audio'}`;
}
