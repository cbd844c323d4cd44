/** A short model-free summary of output: its length, first and last lines, and a few lines that look like errors. */
import { formatCount, plural } from './countLabels';
import { alternateEnds, findErrorLinesIn } from './errorLineDetection';
import { cutLineMiddle, splitLines } from './outputLines';

const SUMMARY_FIRST = 3;
const SUMMARY_LAST = 5;
const SUMMARY_ERRORS = 5;
const SUMMARY_LINE_CHARS = 300;

/**
 * A short model-free summary: line count, the first 3 lines, a few error lines (with their line
 * numbers) and the last 5 lines. Short output is shown whole.
 */
export function summarizeOutput(text: string): string {
  const lines = splitLines(text);
  const total = lines.length;
  if (total === 0) return '(no output)';
  const show = (i: number): string => cutLineMiddle(lines[i] as string, SUMMARY_LINE_CHARS).text;
  if (total <= SUMMARY_FIRST + SUMMARY_LAST) {
    return [`${plural(total, 'line')}:`, ...lines.map((_, i) => show(i))].join('\n');
  }
  const out: string[] = [`${plural(total, 'line')}.`, 'First lines:'];
  for (let i = 0; i < SUMMARY_FIRST; i++) out.push(`  ${show(i)}`);
  const middle = findErrorLinesIn(lines).filter((m) => m.line >= SUMMARY_FIRST && m.line < total - SUMMARY_LAST);
  const errors = middle.filter((m) => m.severity === 'error');
  const warnings = middle.filter((m) => m.severity === 'warning');
  const chosen = alternateEnds(errors.length > 0 ? errors : warnings)
    .slice(0, SUMMARY_ERRORS)
    .sort((a, b) => a.line - b.line);
  if (chosen.length > 0) {
    const label = errors.length > 0 ? 'error' : 'warning';
    const count = errors.length > 0 ? errors.length : warnings.length;
    out.push(`Lines that look like ${label}s (${formatCount(chosen.length)} of ${formatCount(count)}):`);
    for (const m of chosen) out.push(`  line ${formatCount(m.line + 1)}: ${show(m.line)}`);
  }
  const skipped = total - SUMMARY_FIRST - SUMMARY_LAST;
  out.push(`… [${plural(skipped, 'line')} in between] …`, 'Last lines:');
  for (let i = total - SUMMARY_LAST; i < total; i++) out.push(`  ${show(i)}`);
  return out.join('\n');
}
