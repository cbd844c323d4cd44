/** The session token budget warns at this share of it. */
const WARNING_SHARE = 0.8;

/** Tokens sent and received since the window opened (a new conversation does not reset them), against `[ai] session_token_budget`. */
export class TokenBudget {
  private spent = 0;
  /** The budget the 80% warning was given for (a raised budget warns again). */
  private warnedAt: number | undefined;

  /** `limit`: the budget as set now; 0 means none. */
  constructor(private readonly limit: () => number) {}

  get used(): number {
    return this.spent;
  }

  /** Why no request may go out, once the budget is spent. */
  exhausted(): string | undefined {
    const limit = this.limit();
    if (limit <= 0 || this.spent < limit) return undefined;
    return (
      `Stopped: this session has used ${this.spent.toLocaleString('en-US')} tokens, its budget of ${limit.toLocaleString('en-US')} ([ai] session_token_budget). ` +
      'Raise it in Settings → AI (0 means no limit) to go on.'
    );
  }

  /** Counts a request's tokens; returns the warning to show the first time 80% of a budget is passed. */
  count(tokens: number): string | undefined {
    this.spent += tokens;
    const limit = this.limit();
    if (limit <= 0 || this.warnedAt === limit || this.spent < limit * WARNING_SHARE || this.spent >= limit) return undefined;
    this.warnedAt = limit;
    return (
      `This session has used ${Math.round((this.spent / limit) * 100)}% of its token budget ` +
      `(${this.spent.toLocaleString('en-US')} of ${limit.toLocaleString('en-US')}); the agent stops at 100%.`
    );
  }
}
