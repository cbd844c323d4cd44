import type { AgentDelta } from './conversationDeltas';

export interface FrameScheduler {
  request(callback: () => void): number;
  cancel(handle: number): void;
}

const animationFrames: FrameScheduler = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
};

/**
 * Streaming deltas arrive token by token; the panel takes them at most once per frame, so a
 * long answer costs one render per frame, never one per token, and typing in the terminal
 * stays smooth.
 */
export class DeltaBatcher {
  private pending: AgentDelta[] = [];
  private handle: number | undefined;

  constructor(
    private readonly apply: (deltas: AgentDelta[]) => void,
    private readonly scheduler: FrameScheduler = animationFrames,
  ) {}

  push(delta: AgentDelta): void {
    this.pending.push(delta);
    this.handle ??= this.scheduler.request(() => {
      this.handle = undefined;
      this.flush();
    });
  }

  flush(): void {
    this.cancelFrame();
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) this.apply(batch);
  }

  /** A whole view arrived: it already holds the text of every delta sent before it. */
  discard(): void {
    this.cancelFrame();
    this.pending = [];
  }

  private cancelFrame(): void {
    if (this.handle === undefined) return;
    this.scheduler.cancel(this.handle);
    this.handle = undefined;
  }
}
