import { SKIPPING_FRAME_BYTES, SKIPPING_FRAME_MS, SMALLEST_FRAME } from '../pty/flowPolicy';

/**
 * While a flood is being skipped, the renderer gets one frame of output every SKIPPING_FRAME_MS
 * (fifteen a second): whatever else it parsed would scroll away before the next paint anyway,
 * and on a machine with few cores the page parsing and painting at full speed takes the CPU
 * the flood itself (the program, the kernel's pty, the engine) needs. `room` says how much may go now; once a frame's budget
 * is spent, `resume` is called when the next frame begins.
 */
export class FloodPace {
  private frameStart = -Infinity;
  private sentInFrame = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly resume: () => void,
    private readonly bytesPerFrame = SKIPPING_FRAME_BYTES,
    private readonly frameMs = SKIPPING_FRAME_MS,
  ) {}

  room(now: number): number {
    if (now - this.frameStart >= this.frameMs) {
      this.frameStart = now;
      this.sentInFrame = 0;
    }
    // Less than a small frame left counts as none: a frame that small is not worth sending,
    // and one too small for the next character would never go at all.
    const left = this.bytesPerFrame - this.sentInFrame;
    if (left < SMALLEST_FRAME && !this.timer) {
      this.timer = setTimeout(
        () => {
          this.timer = undefined;
          this.resume();
        },
        Math.max(0, this.frameStart + this.frameMs - now),
      );
    }
    return left < SMALLEST_FRAME ? 0 : left;
  }

  sent(bytes: number): void {
    this.sentInFrame += bytes;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
