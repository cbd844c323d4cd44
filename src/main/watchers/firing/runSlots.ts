/**
 * The global cap on watcher runs at once (2-core machines: two agent runs at a time are
 * plenty). A watcher that finds every slot taken waits in line and is called back, in
 * order, when one frees.
 */
export class RunSlots {
  private taken = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {}

  get full(): boolean {
    return this.taken >= this.size;
  }

  take(): void {
    this.taken++;
  }

  release(): void {
    this.taken = Math.max(0, this.taken - 1);
    this.waiting.shift()?.();
  }

  /** `retry` is called once, when a slot frees; a caller already in line is not added twice. */
  waitFor(retry: () => void): void {
    if (!this.waiting.includes(retry)) this.waiting.push(retry);
  }

  forget(retry: () => void): void {
    const index = this.waiting.indexOf(retry);
    if (index >= 0) this.waiting.splice(index, 1);
  }
}
