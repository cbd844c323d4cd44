import type { Author } from '../historyRecord';

/** Who ran a block that the user did not type: a plan step (with the gate's decision), an `!auto` run's step, a child agent's step. */
export interface Authorship {
  author: Exclude<Author, 'you'>;
  /** How the step was allowed ("allowed by you", "allowed by policy"). */
  decision?: string;
  rule?: string;
  conversation?: string;
}

/** How many authored blocks are remembered while their block runs (a step whose block never finishes is dropped first). */
const KEPT = 200;

/**
 * The agent says which blocks it typed (when each starts); the recorder asks when the block
 * finishes. Blocks no one claimed are the user's.
 */
export class BlockAuthors {
  private readonly authors = new Map<string, Authorship>();

  claim(blockId: string, authorship: Authorship): void {
    this.authors.delete(blockId);
    this.authors.set(blockId, authorship);
    if (this.authors.size > KEPT) this.authors.delete(this.authors.keys().next().value!);
  }

  /** The block's author, forgotten once asked for (a block finishes once). */
  take(blockId: string): Authorship | undefined {
    const authorship = this.authors.get(blockId);
    this.authors.delete(blockId);
    return authorship;
  }
}
