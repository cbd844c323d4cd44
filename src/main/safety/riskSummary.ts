/** The result of a classification: the worst level of its parts, and their reasons as sentences, worst first, without repeats. */
import type { ClassifiedPart, RiskLevel, RiskResult } from './riskTypes';
import { LEVEL_RANK, maxLevel } from './rules/verdict';

export function summarizeRisk(parts: ClassifiedPart[]): RiskResult {
  let level: RiskLevel = 'green';
  for (const part of parts) level = maxLevel(level, part.level);
  const reasons: string[] = [];
  const ranked = [...parts].filter((p) => level === 'green' || p.level !== 'green').sort((a, b) => LEVEL_RANK[b.level] - LEVEL_RANK[a.level]);
  for (const part of ranked) {
    for (const reason of part.reason.split('; ')) {
      const plain = part.command === '' || part.command.startsWith('(') || namesCommand(reason, part.command);
      const name = /^\w/.test(part.command) ? part.command : `'${part.command}'`;
      const sentence = plain ? reason : `${name}: ${reason}`;
      if (!reasons.includes(sentence)) reasons.push(sentence);
    }
  }
  if (reasons.length === 0) reasons.push('nothing to run');
  return { level, reasons, parts };
}

/** Whether a reason already names its command as a word (`sudo runs rm …`, `… into sh`). */
function namesCommand(reason: string, command: string): boolean {
  const escaped = command.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  return new RegExp(`(^|\\s)${escaped}($|[\\s:])`).test(reason);
}
