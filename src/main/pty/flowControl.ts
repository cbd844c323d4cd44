/**
 * End-to-end flow control for one pane. Output counts as outstanding from the moment it
 * is sent until the renderer acknowledges it from xterm's write callback (or the mirror
 * has parsed it). Above the high watermark the pty is paused, so a flood (`yes`, `cat` of
 * a huge file) waits in the kernel instead of piling up in memory, and Ctrl+C — written
 * straight to the pty — takes effect at once; below the low watermark reading resumes.
 */
export interface Watermarks {
  /** Pause the pty when more than this many bytes are outstanding. */
  high: number;
  /** Resume once every consumer is below this. */
  low: number;
}

export const DEFAULT_WATERMARKS: Watermarks = { high: 250_000, low: 150_000 };

export class FlowControl {
  private readonly outstanding = new Map<string, number>();
  private paused = false;

  constructor(
    private readonly pause: () => void,
    private readonly resume: () => void,
    private readonly watermarks: Record<string, Watermarks> = {},
  ) {}

  private limits(consumer: string): Watermarks {
    return this.watermarks[consumer] ?? DEFAULT_WATERMARKS;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  sent(consumer: string, bytes: number): void {
    const total = (this.outstanding.get(consumer) ?? 0) + bytes;
    this.outstanding.set(consumer, total);
    if (!this.paused && total > this.limits(consumer).high) {
      this.paused = true;
      this.pause();
    }
  }

  acknowledged(consumer: string, bytes: number): void {
    const current = this.outstanding.get(consumer);
    if (current === undefined) return;
    this.outstanding.set(consumer, Math.max(0, current - bytes));
    this.maybeResume();
  }

  /** A consumer went away (renderer disconnected): its outstanding bytes no longer hold the pty. */
  forget(consumer: string): void {
    this.outstanding.delete(consumer);
    this.maybeResume();
  }

  private maybeResume(): void {
    if (!this.paused) return;
    for (const [consumer, total] of this.outstanding) if (total >= this.limits(consumer).low) return;
    this.paused = false;
    this.resume();
  }
}
