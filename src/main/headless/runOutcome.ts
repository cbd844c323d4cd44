import type { ConversationItem, ConversationView, PlanStepView } from '../../shared/agent';
import { describeAutoEnd } from '../../shared/companion';
import { AGENT_EXIT, type StreamEventOf } from './agentStream';

type Subtype = StreamEventOf<'result'>['subtype'];

export interface RunOutcome {
  exitCode: number;
  subtype: Subtype;
  reason?: string;
  /** The last answer's text. */
  result: string;
  numTurns: number;
}

/** How the run stopped from outside the agent, when it did. */
export type RunStop = { kind: 'timeout'; seconds: number } | { kind: 'interrupted'; signal: string } | { kind: 'reader-gone' } | { kind: 'quit' } | { kind: 'limit'; detail: string } | { kind: 'shell'; detail: string };

/**
 * The exit status of a `tandem agent` run from what its conversation shows (docs/agent-protocol.md):
 * 124 a time limit, 130 an interrupt, 4 no model answered (or the daily budget refused the request), 3 the last step proposed was refused
 * or denied, 1 the agent failed or the last step that ran failed, 0 otherwise.
 */
export function runOutcome(view: ConversationView, firstItemId: string | undefined, stop: RunStop | undefined): RunOutcome {
  const start = firstItemId ? view.items.findIndex((item) => item.id === firstItemId) : 0;
  const items = view.items.slice(Math.max(0, start));
  const answers = items.filter((item): item is Extract<ConversationItem, { role: 'assistant' }> => item.role === 'assistant');
  const result = [...answers].reverse().find((item) => item.text.trim())?.text ?? '';
  // A model response is an answer, a plan, or an answer with its plan right after it.
  const numTurns = items.filter((item, index) => item.role === 'assistant' || (item.role === 'plan' && items[index - 1]?.role !== 'assistant')).length;
  const base = { result, numTurns };
  if (stop?.kind === 'timeout') return { ...base, exitCode: AGENT_EXIT.timeout, subtype: 'error_timeout', reason: `the time limit of ${stop.seconds} s was reached` };
  if (stop?.kind === 'interrupted') return { ...base, exitCode: AGENT_EXIT.interrupted, subtype: 'error_interrupted', reason: `interrupted (${stop.signal})` };
  if (stop?.kind === 'reader-gone') return { ...base, exitCode: AGENT_EXIT.interrupted, subtype: 'error_interrupted', reason: 'stdout was closed: nobody reads the run any more (as at SIGPIPE)' };
  if (stop?.kind === 'quit') return { ...base, exitCode: AGENT_EXIT.refused, subtype: 'error_refused', reason: 'you quit the run at an approval' };
  if (stop?.kind === 'shell') return { ...base, exitCode: AGENT_EXIT.failed, subtype: 'error_during_execution', reason: stop.detail };
  if (stop?.kind === 'limit') return { ...base, exitCode: AGENT_EXIT.failed, subtype: 'error_during_execution', reason: stop.detail };
  if (view.setupHint) return { ...base, exitCode: AGENT_EXIT.model, subtype: 'error_model', reason: `no model can be reached: ${view.setupHint}` };
  const lastAsk = lastIndexOf(items, (item) => item.role === 'user');
  const afterAsk = items.slice(lastAsk + 1);
  const failedRequest = afterAsk.filter((item) => item.role === 'error').pop();
  const lastAnswerAt = lastIndexOf(afterAsk, (item) => item.role === 'assistant' && !item.interrupted && item.text.trim() !== '');
  const lastErrorAt = lastIndexOf(afterAsk, (item) => item.role === 'error');
  if (failedRequest?.role === 'error' && lastErrorAt > lastAnswerAt && failedRequest.dailyBudget) return { ...base, exitCode: AGENT_EXIT.budget, subtype: 'error_budget', reason: failedRequest.text };
  if (failedRequest?.role === 'error' && lastErrorAt > lastAnswerAt) return { ...base, exitCode: AGENT_EXIT.model, subtype: 'error_model', reason: failedRequest.text };
  const steps = items.flatMap((item) => (item.role === 'plan' ? item.plan.steps : []));
  const last = steps[steps.length - 1];
  if (last?.beyondLimit) return { ...base, exitCode: AGENT_EXIT.failed, subtype: 'error_during_execution', reason: last.detail ?? 'the step limit was reached' };
  if (last && last.status === 'denied') return { ...base, exitCode: AGENT_EXIT.refused, subtype: 'error_refused', reason: `step ${last.index} (${last.command}) was ${refusalWords(last)}` };
  const autoEnd = items.filter((item) => item.role === 'summary').pop();
  if (autoEnd?.role === 'summary' && autoEnd.summary.end.kind !== 'done') {
    return { ...base, exitCode: AGENT_EXIT.failed, subtype: 'error_during_execution', reason: `the auto run ended: ${describeAutoEnd(autoEnd.summary.end)}` };
  }
  const ran = steps.filter((step) => step.status === 'done' || step.status === 'failed');
  const lastRan = ran[ran.length - 1];
  if (lastRan?.status === 'failed') return { ...base, exitCode: AGENT_EXIT.failed, subtype: 'error_step', reason: `the last step that ran failed: ${lastRan.command}${lastRan.exitCode !== undefined ? ` (exit ${lastRan.exitCode})` : ''}` };
  return { ...base, exitCode: AGENT_EXIT.ok, subtype: 'success' };
}

function refusalWords(step: PlanStepView): string {
  return step.detail ? step.detail : step.decider ? `denied by ${step.decider.rule}` : 'denied';
}

function lastIndexOf<T>(list: readonly T[], predicate: (value: T) => boolean): number {
  for (let index = list.length - 1; index >= 0; index--) if (predicate(list[index]!)) return index;
  return -1;
}
