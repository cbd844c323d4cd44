/** Clips kept at most per connection: a recording waits here only until its `voice.transcribe` arrives, right behind it. */
const MAX_WAITING_CLIPS = 2;

/**
 * The recordings a renderer sent (VoiceClip frames) that its `voice.transcribe` request has
 * not taken yet. Held in memory only, never on disk; an old one gives way to a new one.
 */
export class VoiceClips {
  private readonly waiting = new Map<number, Uint8Array>();

  put(clipId: number, wav: Uint8Array): void {
    this.waiting.delete(clipId);
    // A copy: the frame's buffer may be the transport's, reused for the next message.
    this.waiting.set(clipId, Uint8Array.from(wav));
    while (this.waiting.size > MAX_WAITING_CLIPS) this.waiting.delete(this.waiting.keys().next().value!);
  }

  take(clipId: number): Uint8Array | undefined {
    const wav = this.waiting.get(clipId);
    this.waiting.delete(clipId);
    return wav;
  }

  clear(): void {
    this.waiting.clear();
  }
}
