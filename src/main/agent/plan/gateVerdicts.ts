import { isOpen } from '../../../shared/planSteps';
import { reasonSentences } from '../../safety/reasonSentences';
import type { PlanEffect, PlanEvent } from './planEvents';
import { auditDecidedBy, gateDecider, stepAudit, type PlanStep } from './planStep';

type JudgedEvent = Extract<PlanEvent, { kind: 'judged' }>;

/**
 * The approval gate's verdict on a step's command: its risk and approval (and the command a
 * pre-exec hook put in its place); a denial settles the step, and in an auto run so does a RED
 * verdict (refused, never blocked waiting for an edit). `plan.halt` stops the plan after such
 * a step; `plan.open` is false once the plan is settled.
 */
export function applyGateVerdict(step: PlanStep, event: JudgedEvent, plan: { refuser?: { name: string; by: 'auto' | 'headless' }; open: boolean; halt(reason: string): void; effects: PlanEffect[] }): void {
  const { effects } = plan;
  // The user edited the step meanwhile: the new command is judged in its turn.
  if (step.command !== event.command) return;
  const { decision } = event;
  if (decision.command !== event.command) {
    // A pre-exec hook changed the command: what runs is what the hook returned.
    const hook = decision.modifiedBy ?? 'pre-exec';
    effects.push(stepAudit(step, 'edited', { command: decision.command, originalCommand: event.command, decidedBy: { kind: 'hook', rule: hook } }));
    step.originalCommand ??= event.command;
    step.command = decision.command;
    step.changedByHook = hook;
  }
  step.risk = { level: decision.level, reasons: decision.reasons };
  step.judgedCommand = step.command;
  step.approval = {
    decision: decision.decision,
    blocked: decision.blocked,
    rule: decision.rule,
    decidedBy: decision.decidedBy,
    grantable: !decision.blocked && decision.level !== 'red' && decision.decision === 'ask' && !decision.personal,
    shape: decision.shape,
    ...(decision.personal ? { personal: true } : {}),
    ...(decision.host !== undefined ? { host: decision.host } : {}),
  };
  if (!plan.open || !isOpen(step)) return;
  if (plan.refuser && decision.blocked) {
    const { name, by } = plan.refuser;
    const why = reasonSentences(decision.reasons);
    const rule = `${name}, which refuses RED steps${why ? `: ${why}` : '.'}`;
    step.result = { content: `Not run: refused by ${rule} Find another way, or leave this to the user and say so.`, isError: true };
    step.status = 'denied';
    step.detail = `refused (RED) by ${name}${why ? `: ${why}` : ''}`;
    step.decider = { verdict: 'denied', by, rule: `RED: never runs in ${name}` };
    effects.push(stepAudit(step, 'denied', { decision: 'deny', decidedBy: auditDecidedBy(step.decider), reason: why || undefined }));
    plan.halt(`Step ${step.index} was refused: ${name} does not run RED steps.`);
  } else if (decision.decision === 'deny') {
    step.result = { content: `Not run: denied by ${decision.rule}.`, isError: true };
    step.status = 'denied';
    step.detail = `denied by ${decision.rule}`;
    step.decider = gateDecider('denied', step.approval);
    effects.push(stepAudit(step, 'denied', { decision: 'deny', decidedBy: auditDecidedBy(step.decider) }));
    plan.halt(`Step ${step.index} was denied by ${decision.rule}.`);
  } else if (decision.blocked) {
    effects.push(stepAudit(step, 'blocked', { decidedBy: auditDecidedBy(gateDecider('denied', step.approval)) }));
  }
}
