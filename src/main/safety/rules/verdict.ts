/** Risk levels and the Verdict a rule raises them on. */
import type { RiskLevel } from '../riskTypes';

export const LEVEL_RANK: Readonly<Record<RiskLevel, number>> = { green: 0, yellow: 1, red: 2 };

export function maxLevel(a: RiskLevel, b: RiskLevel): RiskLevel {
  return LEVEL_RANK[b] > LEVEL_RANK[a] ? b : a;
}

/** What one command came to: the worst level any rule raised, with the reasons at that level. */
export class Verdict {
  level: RiskLevel = 'green';
  readonly flags: string[] = [];
  /** The command's words as written (literal ones by value): its shape for session grants. */
  words: string[] = [];
  readonly writes: string[] = [];
  /** Protected paths (absolute) this command would change: the approval gate forbids some outright. */
  readonly protectedHits: string[] = [];
  private readonly found: { level: RiskLevel; reason: string }[] = [];

  raise(level: RiskLevel, reason: string): void {
    this.level = maxLevel(this.level, level);
    if (!this.found.some((f) => f.reason === reason)) this.found.push({ level, reason });
  }
  green(reason: string): void {
    this.raise('green', reason);
  }
  yellow(reason: string): void {
    this.raise('yellow', reason);
  }
  red(reason: string): void {
    this.raise('red', reason);
  }
  write(path: string): void {
    if (!this.writes.includes(path)) this.writes.push(path);
  }
  touchProtected(path: string): void {
    if (!this.protectedHits.includes(path)) this.protectedHits.push(path);
  }
  addFlags(flags: Iterable<string>): void {
    for (const f of flags) if (!this.flags.includes(f)) this.flags.push(f);
  }
  /** The reasons at the final level, joined. */
  get reason(): string {
    return this.found
      .filter((f) => f.level === this.level)
      .map((f) => f.reason)
      .join('; ');
  }
}
