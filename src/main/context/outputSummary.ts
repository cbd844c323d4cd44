/**
 * A model-free summary of output — the summarizer's local filtering, used when no small model
 * can be asked: the first lines, the lines that look like errors or warnings with a line of
 * context, and the last lines, in order, with every gap stated.
 */
import { agree, formatCount, plural } from './countLabels';
import { alternateEnds, findErrorLinesIn } from './errorLineDetection';
import { cutLineMiddle, splitLines } from './outputLines';

const SUMMARY_FIRST = 5;
const SUMMARY_LAST = 10;
/** Error and warning lines kept, context included. */
const SUMMARY_MATCH_LINES = 45;
const SUMMARY_LINE_CHARS = 300;

/**
 * Line count, the first 5 lines, error lines (then warning lines) each with one line of
 * context and an error's location lines — the first and last ones before those in between —
 * and the last 10 lines, joined with `… [N lines omitted] …`. Output that short is shown whole.
 */
export function summarizeOutput(text: string): string {
  const lines = splitLines(text);
  const total = lines.length;
  if (total === 0) return '(no output)';
  const show = (i: number): string => cutLineMiddle(lines[i] as string, SUMMARY_LINE_CHARS).text;
  if (total <= SUMMARY_FIRST + SUMMARY_LAST) return [`${plural(total, 'line')}:`, ...lines.map((_, i) => show(i))].join('\n');

  const keep = new Set<number>();
  for (let i = 0; i < SUMMARY_FIRST; i++) keep.add(i);
  for (let i = total - SUMMARY_LAST; i < total; i++) keep.add(i);
  const matches = findErrorLinesIn(lines);
  const errors = matches.filter((m) => m.severity === 'error');
  const warnings = matches.filter((m) => m.severity === 'warning');
  let matchLines = 0;
  for (const match of [...alternateEnds(errors), ...alternateEnds(warnings)]) {
    const wanted = [match.line - 1, match.line, match.line + 1, ...(match.locations ?? [])].filter((i, n, all) => i >= 0 && i < total && !keep.has(i) && all.indexOf(i) === n);
    if (matchLines + wanted.length > SUMMARY_MATCH_LINES) break;
    for (const i of wanted) keep.add(i);
    matchLines += wanted.length;
  }

  const shownErrors = errors.filter((m) => keep.has(m.line)).length;
  const shownWarnings = warnings.filter((m) => keep.has(m.line)).length;
  const found: string[] = [];
  if (errors.length > 0) found.push(`${formatCount(shownErrors)} of ${plural(errors.length, 'line')} that ${agree(errors.length, 'looks', 'look')} like errors`);
  if (warnings.length > 0) found.push(`${formatCount(shownWarnings)} of ${plural(warnings.length, 'warning line')}`);
  const header = `${plural(total, 'line')}; kept the first ${SUMMARY_FIRST}, ${found.length > 0 ? `${found.join(' and ')} (with context), ` : 'no lines look like errors or warnings, '}and the last ${SUMMARY_LAST}:`;

  const out = [header];
  let previous = -1;
  for (const i of [...keep].sort((a, b) => a - b)) {
    const gap = i - previous - 1;
    if (gap > 0) out.push(`… [${plural(gap, 'line')} omitted] …`);
    out.push(show(i));
    previous = i;
  }
  return out.join('\n');
}
