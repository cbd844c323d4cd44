/**
 * What the model asked to hear, for a number of seconds: the microphone, what the speakers
 * play, or one application's stream (matched by name, docs/voice.md "listen").
 */
export type ListenRequest = { source: 'microphone' | 'system'; seconds: number } | { source: 'application'; application: string; seconds: number };

export const LISTEN_MAX_SECONDS = 60;

/** The source in words, for the card and the model. */
export function describeSource(request: ListenRequest): string {
  if (request.source === 'application') return `the audio of ${request.application} (one application's stream)`;
  return request.source === 'microphone' ? 'the microphone' : 'system audio (what your speakers play)';
}

/** The source in a few words, for the step's badge: "the microphone", "system audio", "firefox". */
export function shortSource(request: ListenRequest): string {
  if (request.source === 'application') return request.application;
  return request.source === 'microphone' ? 'the microphone' : 'system audio';
}

/** The step's line on its card and in the audit trail: what is recorded, for how long, and where it goes. */
export function listenCommand(request: ListenRequest, transcribedAt: string | undefined): string {
  const where = transcribedAt ? `, transcribed at ${transcribedAt}` : '';
  return `listen: record ${describeSource(request)} for ${request.seconds} s${where}`;
}

/** The kind a grant "for this session" covers: one source, and for an application that application only. */
export function listenShape(request: ListenRequest): string {
  if (request.source === 'application') return `listen to the audio of ${request.application.toLowerCase()}`;
  return `listen to ${shortSource(request)}`;
}
