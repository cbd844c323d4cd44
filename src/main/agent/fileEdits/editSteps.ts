import { realpath } from 'node:fs/promises';
import type { EditStepView } from '../../../shared/agent';
import type { GateDecision, ProposedEdit } from '../../safety/approval/approvalGate';
import type { EditAudit, StepEnd } from '../plan/planEvents';
import type { PlanStep } from '../plan/planStep';
import { resolveToolPath } from '../tools/filePaths';
import { realPathOf } from './editableFile';
import { applyEdit, prepareEdit, undoEdit, type AppliedEdit, type PreparedEdit } from './fileEdit';

export type JudgedEdit = { ok: true; edit?: EditStepView; decision: GateDecision } | { ok: false; message: string; audit: EditAudit };
export type EditEnd = Extract<StepEnd, { kind: 'edited' }>;
export type UndoEnd = { restored: boolean; message: string; audit: EditAudit };

export interface EditStepsHost {
  homeDir?: string;
  /** The gate's verdict on the change (ApprovalGate.decideEdit, with the conversation filled in). */
  decide(proposed: ProposedEdit): Promise<GateDecision>;
}

/**
 * The file side of edit steps: works out a step's change when its turn comes (so a second edit
 * of the same file sees the first), has the gate judge it, writes it once approved, and keeps
 * what Undo needs. Keyed by step id.
 */
export class EditSteps {
  private readonly prepared = new Map<string, PreparedEdit>();
  private readonly applied = new Map<string, AppliedEdit>();

  constructor(private readonly host: EditStepsHost) {}

  async judge(step: Readonly<PlanStep>, cwd: string, planId: string): Promise<JudgedEdit> {
    const request = step.editRequest;
    if (!request) return { ok: false, message: 'Not changed: the step has no edit.', audit: {} };
    const resolved = resolveToolPath(request.path, { cwd, homeDir: this.host.homeDir });
    if (!resolved.ok) return { ok: false, message: `Not changed: ${resolved.message}`, audit: {} };
    const real = await realPathOf(resolved.path);
    const path = real.ok ? real.path : resolved.path;
    // Compared with the real path: a cwd reached through a symlink still contains its files.
    const realCwd = cwd ? await realpath(cwd).catch(() => cwd) : cwd;
    const decision = await this.host.decide({
      tool: request.request.tool,
      path,
      linkPath: resolved.path,
      command: step.command,
      purpose: step.purpose,
      cwd: realCwd,
      paneId: step.paneId,
      planId,
      step: step.index,
    });
    // A change that will not be made (Tandem's own files, a deny glob, a hook, a key file) is not worked out.
    if (decision.decision === 'deny' || decision.blocked) return { ok: true, decision };
    const prepared = await prepareEdit(resolved.path, request.request);
    if (!prepared.ok) return { ok: false, message: prepared.message, audit: { path } };
    const edit = prepared.edit;
    this.prepared.set(step.id, edit);
    return { ok: true, edit: { tool: edit.tool, path: edit.path, creates: !edit.before.exists, diff: edit.diff }, decision };
  }

  /** Writes the approved step's change; the end says what the model is told. */
  async apply(step: Readonly<PlanStep>): Promise<EditEnd> {
    const edit = this.prepared.get(step.id);
    this.prepared.delete(step.id);
    if (!edit) return { kind: 'edited', ok: false, report: 'Not changed: the edit was not prepared.', audit: {} };
    const result = await applyEdit(edit);
    if (!result.ok) return { kind: 'edited', ok: false, report: result.message, audit: { path: edit.path, sha256Before: edit.before.sha256 } };
    this.applied.set(step.id, result.applied);
    const { added, removed } = edit.diff;
    const what = !edit.before.exists ? `Created ${edit.path}` : edit.tool === 'write_file' ? `Wrote ${edit.path}` : `Edited ${edit.path}`;
    return {
      kind: 'edited',
      ok: true,
      report: `${what}: +${added} −${removed} lines${edit.diff.finalNewline ? ` (line break at the end ${edit.diff.finalNewline})` : ''}. The change is applied.`,
      audit: { path: edit.path, sha256Before: result.applied.sha256Before, sha256After: result.applied.sha256After },
    };
  }

  canUndo(stepId: string): boolean {
    return this.applied.has(stepId);
  }

  /** Restores what the step's edit replaced, when the file is still as the edit left it. */
  async undo(stepId: string): Promise<UndoEnd> {
    const applied = this.applied.get(stepId);
    if (!applied) return { restored: false, message: 'Not undone: this step did not change a file.', audit: {} };
    // Taken while the undo runs: a second click finds nothing to undo.
    this.applied.delete(stepId);
    const undone = await undoEdit(applied);
    const audit = { path: applied.path, sha256Before: applied.sha256After };
    if (!undone.restored) {
      this.applied.set(stepId, applied);
      return { restored: false, message: undone.message, audit };
    }
    const message = applied.previous === undefined ? `Undone: ${applied.path} was removed (the edit had created it).` : `Undone: ${applied.path} has its previous content again.`;
    return { restored: true, message, audit: { ...audit, sha256After: undone.sha256Now } };
  }
}
