import type { SinkInput } from './sinkInputs';

/** The stream `listen` records for an application, or why there is none. */
export type ApplicationStream = { found: true; stream: SinkInput; playing: number } | { found: false; reason: string };

function matches(stream: SinkInput, application: string): boolean {
  const wanted = application.toLowerCase();
  return stream.name?.toLowerCase() === wanted || stream.binary?.toLowerCase() === wanted;
}

/** "firefox, mpv" or "nothing is playing": what the user and the model can name instead. */
function playingNow(streams: readonly SinkInput[]): string {
  const names = [...new Set(streams.filter((stream) => !stream.corked).map((stream) => stream.name ?? stream.binary ?? `stream #${stream.index}`))];
  return names.length > 0 ? `playing now: ${names.join(', ')}` : 'nothing is playing now';
}

/**
 * The playing (not paused) stream of `application`, matched case-insensitively against
 * `application.name` or `application.process.binary`. When the application plays several
 * streams, the newest (the highest index: the server numbers streams as they start) is taken,
 * and `playing` says how many there were.
 */
export function applicationStream(streams: readonly SinkInput[], application: string): ApplicationStream {
  const its = streams.filter((stream) => matches(stream, application));
  const playing = its.filter((stream) => !stream.corked);
  if (playing.length > 0) return { found: true, stream: playing.reduce((newest, stream) => (stream.index > newest.index ? stream : newest)), playing: playing.length };
  if (its.length > 0) return { found: false, reason: `${application} is paused: its stream plays nothing (${playingNow(streams)})` };
  return { found: false, reason: `${application} is not playing anything (${playingNow(streams)})` };
}
