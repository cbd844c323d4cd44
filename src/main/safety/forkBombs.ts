/** `:(){ :|:& };:` and renamed variants: a function whose body calls itself piped or in the background. */
import type { RiskLevel } from './riskTypes';
import { literalValue, type ShellAnalysis } from './shellParser';

export interface SelfCall {
  name: string;
  level: RiskLevel;
  reason: string;
}

/** Functions defined on the line that call themselves: RED when the calls multiply (piped or in the background), else YELLOW. */
export function findSelfCalls(analysis: ShellAnalysis): SelfCall[] {
  const found: SelfCall[] = [];
  for (const fn of analysis.commands) {
    if (fn.kind !== 'function' || !fn.name) continue;
    const name = literalValue(fn.name);
    if (name === undefined) continue;
    const calls = analysis.commands.filter((c) => c.kind === 'simple' && c.name && literalValue(c.name) === name && c.functions.includes(name));
    if (calls.some((c) => c.pipeline !== undefined || c.background)) found.push({ name, level: 'red', reason: `fork bomb: ${name} starts copies of itself until the system runs out of processes` });
    else if (calls.length > 0) found.push({ name, level: 'yellow', reason: `${name} calls itself (endless recursion)` });
  }
  return found;
}
