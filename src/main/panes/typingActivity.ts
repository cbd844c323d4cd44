import { TYPING_ELSEWHERE_MS } from '../pty/flowPolicy';

/**
 * Which pane the user typed into last, and when; one per engine, shared by its panes. A flood
 * being skipped in one pane is read at full speed, which takes a whole core (the program
 * writing it takes the other): while the user types into another pane, the flooding pane reads
 * as any flood does, so the typed pane's shell, the engine and the page get the CPU they need.
 */
export class TypingActivity {
  private typedIn: number | undefined;
  private lastAt = -Infinity;
  private readonly listeners = new Set<(paneId: number) => void>();

  typed(paneId: number): void {
    this.typedIn = paneId;
    this.lastAt = performance.now();
    for (const listener of this.listeners) listener(paneId);
  }

  /** The pane the last key went to. */
  get lastPane(): number | undefined {
    return this.typedIn;
  }

  /** The last key went to another pane than `paneId`, within TYPING_ELSEWHERE_MS. */
  typingElsewhere(paneId: number): boolean {
    return this.typingElsewhereFor(paneId) > 0;
  }

  /** How much longer (ms) the last key counts as typing in another pane than `paneId`; 0 if it does not. */
  typingElsewhereFor(paneId: number): number {
    if (this.typedIn === undefined || this.typedIn === paneId) return 0;
    return Math.max(0, this.lastAt + TYPING_ELSEWHERE_MS - performance.now());
  }

  /** Calls `listener` with the pane of every key; returns how to stop. */
  onTyped(listener: (paneId: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
