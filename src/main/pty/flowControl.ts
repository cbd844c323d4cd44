import { SMALLEST_FRAME, type Watermarks } from './flowPolicy';

/**
 * End-to-end flow control for one pane. Output counts as outstanding from the moment it is
 * sent to a consumer (the renderer, the mirror thread) until that consumer acknowledges it
 * (xterm's write callback, the mirror having parsed it). Each consumer has a window; the
 * pty is paused while any reason holds it, so a flood (`yes`, `cat` of a huge file) waits
 * in the kernel instead of piling up in memory, and Ctrl+C — written straight to the pty —
 * takes effect after at most what is already in flight.
 */

/** Bytes sent to one consumer and not yet acknowledged, with hysteresis between high and low. */
export class DeliveryWindow {
  private outstandingBytes = 0;
  private full = false;

  constructor(
    private readonly limits: Watermarks,
    private readonly events: { full?: () => void; reopened?: () => void } = {},
  ) {}

  get isFull(): boolean {
    return this.full;
  }

  get outstanding(): number {
    return this.outstandingBytes;
  }

  /** How much may be sent now: nothing while full, else up to the high watermark. */
  room(): number {
    return this.full ? 0 : Math.max(0, this.limits.high - this.outstandingBytes);
  }

  sent(bytes: number): void {
    this.outstandingBytes += bytes;
    if (!this.full && this.outstandingBytes > this.limits.high - SMALLEST_FRAME) {
      this.full = true;
      this.events.full?.();
    }
  }

  acknowledged(bytes: number): void {
    this.outstandingBytes = Math.max(0, this.outstandingBytes - bytes);
    if (this.full && this.outstandingBytes < this.limits.low) this.reopen();
  }

  /** The consumer went away (renderer disconnected, mirror thread lost): nothing is outstanding. */
  reset(): void {
    this.outstandingBytes = 0;
    if (this.full) this.reopen();
  }

  private reopen(): void {
    this.full = false;
    this.events.reopened?.();
  }
}

/** Pauses the pty while at least one reason holds it, and resumes it when the last lets go. */
export class PtyThrottle {
  private readonly reasons = new Set<string>();

  constructor(
    private readonly pause: () => void,
    private readonly resume: () => void,
  ) {}

  get isPaused(): boolean {
    return this.reasons.size > 0;
  }

  hold(reason: string): void {
    if (this.reasons.has(reason)) return;
    this.reasons.add(reason);
    if (this.reasons.size === 1) this.pause();
  }

  release(reason: string): void {
    if (!this.reasons.delete(reason)) return;
    if (this.reasons.size === 0) this.resume();
  }
}
