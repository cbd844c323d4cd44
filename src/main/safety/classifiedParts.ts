/**
 * The parts found in one command line, in the order they were met. A command's slot is reserved
 * before its nested commands are classified, so a part comes before the parts it runs.
 */
import type { ClassifiedPart, RiskLevel } from './riskTypes';
import { maxLevel, type Verdict } from './rules/verdict';

export class ClassifiedParts {
  readonly list: ClassifiedPart[] = [];
  /** What runs the parts added now (see ClassifiedPart.carriedBy); undefined at the top of the line. */
  carriedBy: string | undefined;

  get length(): number {
    return this.list.length;
  }

  /** A place for a command whose verdict comes after its nested parts; returns the slot. */
  reserve(): number {
    this.list.push(this.carried({ command: '', flags: [], writes: [], protectedHits: [], words: [], level: 'green', reason: '' }));
    return this.list.length - 1;
  }

  fill(slot: number, command: string, verdict: Verdict): void {
    const carriedBy = this.list[slot]?.carriedBy;
    const part = { command, flags: [...verdict.flags], writes: [...verdict.writes], protectedHits: [...verdict.protectedHits], words: [...verdict.words], level: verdict.level, reason: verdict.reason || 'nothing to flag' };
    this.list[slot] = carriedBy === undefined ? part : { ...part, carriedBy };
  }

  /** A part with nothing but a level and a reason (parse errors, nesting limits, fork bombs); returns the level. */
  add(command: string, level: RiskLevel, reason: string): RiskLevel {
    this.list.push(this.carried({ command, flags: [], writes: [], protectedHits: [], words: [], level, reason }));
    return level;
  }

  private carried(part: ClassifiedPart): ClassifiedPart {
    return this.carriedBy === undefined ? part : { ...part, carriedBy: this.carriedBy };
  }

  /** The worst level of the parts from `start` on. */
  worstSince(start: number): RiskLevel {
    let level: RiskLevel = 'green';
    for (let i = start; i < this.list.length; i++) level = maxLevel(level, (this.list[i] as ClassifiedPart).level);
    return level;
  }
}
