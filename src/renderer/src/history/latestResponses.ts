/**
 * Search as you type sends a request per keystroke; their answers can arrive out of order.
 * Each request takes a ticket; an answer is shown only when no later request's answer has
 * been shown already, so the results never go back to an older text.
 */
export class LatestResponses {
  private issued = 0;
  private shown = 0;

  next(): number {
    return ++this.issued;
  }

  /** Whether the answer to `ticket` may be shown; once it is, older tickets never are. */
  accept(ticket: number): boolean {
    if (ticket <= this.shown) return false;
    this.shown = ticket;
    return true;
  }

  /** Answers to every request made so far are dropped (the overlay closed or opened afresh). */
  dropPending(): void {
    this.shown = this.issued;
  }

  /** Whether a later request than `ticket` was made (its answer is still to come). */
  isLatest(ticket: number): boolean {
    return ticket === this.issued;
  }
}
