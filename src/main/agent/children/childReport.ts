import { blockForModel } from '../blockForModel';
import type { PlanStep } from '../plan/planStep';
import type { FinishedRun } from '../plan/stepRunner';
import { scrubSecrets } from '../../safety/secretScrubber';

const MAX_LISTED_STEPS = 40;

/**
 * What the parent's model is told about a spawn step: the child's answer, what it did (its
 * steps with their exit codes, the files it changed), what it used — or, when the child never
 * reported back (the step was edited into something else, it failed to start), the block.
 */
export function childReport(step: Readonly<PlanStep>, run: FinishedRun): string {
  const child = step.child;
  const exit = run.block.exitCode;
  const interrupted = run.interrupted ? ` It was interrupted: ${run.interruption ?? 'the user stopped it'}.` : '';
  if (!child || child.state === 'starting') {
    return blockForModel(run.block, run.output, { note: `The child agent never reported back (exit ${exit ?? 'unknown'}); this is what its command printed.${interrupted}` });
  }
  const lines = [`Child agent (depth ${child.depth}${child.pid ? `, pid ${child.pid}` : ''}) ${child.state === 'done' ? 'finished' : child.state}, exit ${exit ?? 'unknown'}.${interrupted}`];
  if (child.reason) lines.push(`Why it ended: ${child.reason}.`);
  lines.push(child.answer ? `Its answer:\n${scrubSecrets(child.answer).text}` : 'It gave no answer.');
  if (child.steps.length) {
    const shown = child.steps.slice(-MAX_LISTED_STEPS);
    lines.push(`Its steps${shown.length < child.steps.length ? ` (the last ${shown.length} of ${child.steps.length})` : ''}:`);
    for (const taken of shown) lines.push(`  ${taken.index}. [${taken.status}${taken.exitCode !== undefined ? `, exit ${taken.exitCode}` : ''}] ${scrubSecrets(taken.command).text}`);
  } else lines.push('It took no steps.');
  if (child.filesChanged.length) lines.push(`Files it changed: ${child.filesChanged.join(', ')}`);
  if (child.usage) lines.push(`It used ${child.usage.inputTokens} input and ${child.usage.outputTokens} output tokens${child.usage.costUsd !== undefined ? ` ($${child.usage.costUsd.toFixed(4)})` : ''}.`);
  return lines.join('\n');
}
