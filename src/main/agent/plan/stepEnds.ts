import { redactionNote } from '../redactionNote';
import type { PlanEffect, StepEnd } from './planEvents';
import { stepAudit, type PlanStep } from './planStep';

/**
 * A step ended: its status, result for the model and audit lines, from how it ended (a
 * command ran to its end, an edit was written or not, it never ran). Returns why the plan
 * should stop, when it should. `cancelled`: the plan was cancelled while the step ran, in the
 * step's words ("cancelled", "auto run stopped (Ctrl+C in the pane)").
 */
export function applyStepEnd(step: PlanStep, end: StepEnd, plan: { cancelled: string | undefined; effects: PlanEffect[] }): string | undefined {
  const { effects } = plan;
  const settle = (status: PlanStep['status'], detail?: string) => {
    step.status = status;
    step.detail = detail;
  };
  switch (end.kind) {
    case 'finished': {
      const { block, timedOut, interrupted } = end.run;
      const changedOwn = end.ownFilesChanged.join(', ');
      step.exitCode = block.exitCode;
      step.durationMs = (block.endedAt ?? Date.now()) - block.startedAt;
      // A step ended by a cancel or its timeout did not do its job, even when it exits 0 (`q` quits less with 0).
      const ok = (block.exitCode === 0 || block.exitCode === undefined) && !timedOut && !interrupted;
      step.result = { content: end.report, isError: !ok || changedOwn !== '' };
      step.redacted = redactionNote(end.report);
      const detail = timedOut ? 'timed out' : interrupted ? (plan.cancelled ?? 'interrupted') : undefined;
      settle(ok ? 'done' : 'failed', detail);
      effects.push(stepAudit(step, 'executed', { exitCode: block.exitCode, durationMs: step.durationMs, reason: detail }));
      effects.push({ kind: 'executed', stepId: step.id, cwd: block.cwd });
      if (changedOwn) {
        effects.push(stepAudit(step, 'failed', { exitCode: block.exitCode, reason: `changed Tandem's own files: ${changedOwn}` }));
        settle('failed', `changed Tandem's own files: ${changedOwn}`);
        return `Step ${step.index} changed Tandem's own files (${changedOwn}). Check them before going on.`;
      }
      return ok ? undefined : `Step ${step.index} exited with code ${block.exitCode ?? 'unknown'}${detail ? ` (${detail})` : ''}.`;
    }
    case 'edited':
      step.result = { content: end.report, isError: !end.ok };
      settle(end.ok ? 'done' : 'failed', end.ok ? undefined : end.report);
      effects.push(stepAudit(step, end.ok ? 'executed' : 'failed', { ...end.audit, reason: end.ok ? undefined : end.report }));
      // Written: the post-exec hooks hear of it, as of a command that ran.
      if (end.ok) effects.push({ kind: 'executed', stepId: step.id, cwd: '' });
      return end.ok ? undefined : `Step ${step.index}: ${end.report}`;
    case 'looked':
    case 'acted': {
      step.result = { content: end.content, isError: !end.ok };
      if (end.kind === 'looked' && end.screenshot) step.screenshot = end.screenshot;
      // Stopped like a command step: "cancelled" when the plan was, "interrupted" otherwise.
      const stopped = end.interrupted ? (plan.cancelled ?? 'interrupted') : undefined;
      const reason = end.ok ? undefined : (stopped ?? end.report);
      // A look's card says what it saw in words ("4 words read from window 'Build failed' (Xmessage, 0x2a00007)"), not only the id the model named.
      settle(end.ok ? 'done' : 'failed', reason ?? (end.kind === 'looked' ? end.report : undefined));
      effects.push(stepAudit(step, end.ok ? 'executed' : 'failed', { reason }));
      if (stopped) return `Step ${step.index} was ${stopped}.`;
      return end.ok ? undefined : `Step ${step.index}: ${end.report}`;
    }
    case 'cancelled':
      step.result = { content: 'Not run: cancelled before it was typed.', isError: false };
      settle('skipped', 'cancelled');
      return undefined;
    case 'no-pane':
      step.result = { content: `Not run: pane ${step.paneId ?? '?'} no longer exists.`, isError: true };
      settle('failed', 'the pane is gone');
      effects.push(stepAudit(step, 'failed', { reason: 'the pane is gone' }));
      return `Step ${step.index} could not run: its pane is gone.`;
    case 'not-run':
    case 'pane-gone':
      step.result = { content: `Not run: ${end.message}`, isError: true };
      settle('failed', end.message);
      effects.push(stepAudit(step, 'failed', { reason: end.message }));
      return `Step ${step.index}: ${end.message}`;
  }
}
