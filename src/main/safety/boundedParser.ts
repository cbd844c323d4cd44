/**
 * The shell parser with a budget: one classification may parse only so many times, so many
 * characters and for so long. Past any limit, nothing more is parsed, and the classifier is told
 * once (it then says the command is too complex to follow, which makes it at least YELLOW).
 */
import { performance } from 'node:perf_hooks';
import { ParseTimeoutError, type ShellAnalysis, type ShellParser } from './shellParser';

/** Parses per classification (nested sources, substitution bodies, re-parses after errors): past it, YELLOW. */
const MAX_ANALYSES = 200;
/** Characters parsed per classification, as a multiple of the command's length (plus a floor): error recovery on long garbage is slow. */
const PARSE_BUDGET_FACTOR = 6;
const PARSE_BUDGET_FLOOR = 4000;
/** Time for one classification, all parses included: past it, what is left is not followed (YELLOW). */
const CLASSIFY_DEADLINE_MS = 250;

export class BoundedParser {
  private analyses = 0;
  private parsedChars = 0;
  private readonly parseBudget: number;
  private readonly deadline = performance.now() + CLASSIFY_DEADLINE_MS;
  private ranOut = false;

  /** `onExhausted` is called once, when the budget or the time first runs out. */
  constructor(
    private readonly parser: ShellParser,
    commandLength: number,
    private readonly onExhausted: () => void,
  ) {
    this.parseBudget = PARSE_BUDGET_FLOOR + PARSE_BUDGET_FACTOR * commandLength;
  }

  /** The parse budget ran out: the rest is not followed (and the result is at least YELLOW). */
  get exhausted(): boolean {
    return this.ranOut;
  }

  /** The analysis of `src`; undefined when it does not parse at all or the budget has run out. */
  analyze(src: string): ShellAnalysis | undefined {
    this.parsedChars += src.length;
    const left = this.deadline - performance.now();
    if (this.ranOut || ++this.analyses > MAX_ANALYSES || this.parsedChars > this.parseBudget || left <= 0) return this.exhaust();
    try {
      return this.parser.analyze(src, { timeoutMs: left });
    } catch (error) {
      return error instanceof ParseTimeoutError ? this.exhaust() : undefined;
    }
  }

  private exhaust(): undefined {
    if (!this.ranOut) this.onExhausted();
    this.ranOut = true;
    return undefined;
  }
}
