/** Files a command's output redirections write (`> f`, `>> f`, `&> f`, `<> f`), checked like any written path. */
import { toArg } from './rules/arguments';
import { checkPath } from './rules/pathChecks';
import type { PathContext } from './rules/pathContext';
import type { Verdict } from './rules/verdict';
import { literalValue, type ShellCommand } from './shellParser';

const WRITING_OPERATORS: readonly string[] = ['>', '>>', '>|', '&>', '&>>', '<>'];

export function checkRedirectWrites(cmd: ShellCommand, out: Verdict, paths: PathContext): void {
  for (const r of cmd.redirects) {
    if (!r.target) continue;
    const op = r.operator;
    if (op === '>&' || op === '<&') {
      const v = literalValue(r.target);
      if (op === '<&' || (v !== undefined && /^(\d+|-)$/.test(v))) continue; // fd duplication, not a file
    } else if (!WRITING_OPERATORS.includes(op)) continue;
    if (r.target.parts.length === 1 && r.target.parts[0]?.type === 'substitution') continue; // `> >(cmd)`: cmd is its own part
    checkPath(toArg(r.target), 'write', out, paths);
  }
}
