import { z } from 'zod';
import type { ScreenshotView, UiStepView } from './screenSteps';

/**
 * The agent's plans as the panel shows them: each step (a command, a file edit, a look at the
 * screen, a UI action) with its risk, the gate's verdict and who decided; and the user's
 * decisions on them. The engine's plan state machine is their one writer.
 */

/** How risky a command is, from a real shell parse (worst part wins). */
export interface StepRisk {
  level: 'green' | 'yellow' | 'red';
  /** Short sentences: "rm -r -f on / deletes everything". */
  reasons: string[];
}

/** What the approval gate decided for a step's current command, and who decided. */
export interface StepApproval {
  /** allow: runs without asking; ask: the user decides; deny: it will not run. */
  decision: 'allow' | 'ask' | 'deny';
  /** RED and not named by a policy allow pattern: only Edit, Deny or Skip. */
  blocked: boolean;
  /** The rule, hook, grant or person that decided: "policy ~/.config/tandem/policy.toml: …". */
  rule: string;
  decidedBy: 'builtin' | 'policy' | 'hook' | 'grant' | 'default' | 'person';
  /** "Allow for this session" is offered (never for RED). */
  grantable: boolean;
  /** What that grant covers: the command's shape. */
  shape: string;
  /** Only a decision on this very step lets it run: not Allow all, not a grant (an edit outside the pane's cwd). */
  personal?: boolean;
  /** The step runs on this other host (the pane's shell reached with `ssh`), not on this machine. */
  host?: string;
}

/** Who let a step run, or kept it from running: the card says it ("allowed by Allow all"). */
export interface StepDecider {
  verdict: 'allowed' | 'denied' | 'skipped';
  /** you: a button or key on this step; allow-all: the plan's Allow all; auto: an `!auto` run (GREEN steps); headless: a `tandem agent` run's approval mode; the rest: the approval gate. */
  by: 'you' | 'allow-all' | 'auto' | 'headless' | 'grant' | 'policy' | 'hook' | 'builtin';
  /** The action or rule: "Allow once", "Deny", "policy ~/.config/tandem/policy.toml: allow git status". */
  rule: string;
}

export type StepStatus = 'proposed' | 'approved' | 'running' | 'done' | 'failed' | 'denied' | 'skipped';

/** One line of a unified diff, with its number in the old file, the new one, or both. */
export interface DiffLine {
  kind: 'same' | 'add' | 'remove';
  text: string;
  oldLine?: number;
  newLine?: number;
}

export interface DiffHunk {
  oldStart: number;
  newStart: number;
  lines: DiffLine[];
}

/** What an edit changes, as a unified diff (3 lines of context). */
export interface DiffView {
  added: number;
  removed: number;
  hunks: DiffHunk[];
  /** Diff lines left out of a very large diff (counted, not shown). */
  hiddenLines?: number;
  /** The line break at the very end was added or removed (no line shows it). */
  finalNewline?: 'added' | 'removed';
}

/** The file change an edit step proposes (edit_file, write_file). */
export interface EditStepView {
  tool: 'edit_file' | 'write_file';
  /** The file that changes, absolute (a symlink's target). */
  path: string;
  /** The file does not exist yet: the step creates it. */
  creates: boolean;
  diff: DiffView;
  /** After Undo was asked for: whether the previous content is back, or why not. */
  undo?: { restored: boolean; message: string };
}

export interface PlanStepView {
  id: string;
  /**
   * A shell command typed into the pane (absent: a command too), a file edit, a look at the
   * screen (a screenshot, its text by OCR, the window list), or a UI action (a click, typing …).
   */
  kind?: 'command' | 'edit' | 'screenshot' | 'screen-text' | 'windows' | 'listen' | 'ui';
  /** A UI action step: the action in words and where on the last screenshot it lands. */
  ui?: UiStepView;
  /** A screenshot step's image, exactly as the model was sent it. */
  screenshot?: ScreenshotView;
  /** The file change of an edit step; `command` is then a one-line description of it. */
  edit?: EditStepView;
  /** 1-based position in the plan. */
  index: number;
  command: string;
  /** The model's command when the user (or a pre-exec hook) changed it before it ran. */
  originalCommand?: string;
  /** The pre-exec hook that changed the command, when one did. */
  changedByHook?: string;
  purpose: string;
  status: StepStatus;
  /** Why the step is in its state: denial reason, "waiting for the prompt", timed out ... (never just its duration). */
  detail?: string;
  paneId?: number;
  blockId?: string;
  exitCode?: number;
  durationMs?: number;
  /**
   * Absent until classified. A RED step is blocked: neither Approve nor Allow all runs it;
   * the user can edit it into something less dangerous, deny it or skip it.
   */
  risk?: StepRisk;
  /** Absent while the gate (policy, hooks, grants) is deciding. */
  approval?: StepApproval;
  /** Set once the step was allowed, denied or skipped: by whom. */
  decider?: StepDecider;
  /** Where the step runs (its pane's cwd when it was proposed or last judged). */
  cwd?: string;
  /** Secrets taken out of its output before the model saw it: "1 secret redacted from this output (…)". */
  redacted?: string;
  /** Proposed after its auto run's step limit was reached: refused, and not counted against the limit. */
  beyondLimit?: boolean;
  /** A `spawn_agent` step: the child agent it starts, and what the child has done so far. */
  child?: ChildAgentView;
  /** The trace the step is in and its own span (docs/telemetry.md); absent when telemetry is off. */
  traceId?: string;
  spanId?: string;
}

/** A child agent (`tandem agent` started by a spawn_agent step in the pane), as its parent's card shows it. */
export interface ChildAgentView {
  instruction: string;
  /** What the child may do, a line each: the policy it runs under (never more than its parent's), its limits. */
  may: string[];
  /** 1 for a child of the app's agent, 2 for a grandchild … */
  depth: number;
  /** Before the child has connected back: `starting`. */
  state: 'starting' | 'running' | 'done' | 'failed' | 'stopped';
  pid?: number;
  /** The child's own steps, in order. */
  steps: ChildStepView[];
  /** Files the child's edit steps changed. */
  filesChanged: string[];
  /** The child's steps waiting for a decision here: approvals bubble up to the parent. */
  asking: ChildApprovalView[];
  usage?: { inputTokens: number; outputTokens: number; costUsd?: number };
  /** The child's final answer (the spawn step's result for the model). */
  answer?: string;
  /** Why it ended without an answer: "--budget-usd 0.5 was reached", "it was interrupted" … */
  reason?: string;
}

export interface ChildStepView {
  index: number;
  command: string;
  status: 'asking' | 'running' | 'done' | 'failed' | 'denied' | 'skipped';
  exitCode?: number;
}

/** A child's step that asks: the parent's user answers it on the spawn step's card. */
export interface ChildApprovalView {
  /** The child's approval request id (answer with `agent.child-approval`). */
  id: string;
  /** The child's own id of the step that asks. */
  stepId?: string;
  /** A deeper agent (a grandchild …) whose request the child passed on: who asks. */
  agent?: { depth: number; pid?: number };
  kind: string;
  command: string;
  purpose: string;
  level?: 'green' | 'yellow' | 'red';
  reasons: string[];
  /** The rule that made the child's gate ask. */
  rule: string;
  /** An edit step's unified diff. */
  diff?: string;
}

export type PlanState =
  /** Steps wait for decisions or run. */
  | 'active'
  /** A step failed; the plan waits for the user to continue or stop. */
  | 'halted'
  | 'finished'
  | 'cancelled';

export interface PlanView {
  id: string;
  /** `ask` until the user picks Allow all or Step through. */
  mode: 'ask' | 'allow-all' | 'step-through';
  state: PlanState;
  haltReason?: string;
  steps: PlanStepView[];
  /** The one step that takes decisions now (its buttons and the one-letter keys); absent while none does. */
  decisionStepId?: string;
  /** A plan of an `!auto` run: GREEN steps run without asking, RED ones are refused. */
  auto?: boolean;
}

export const PlanActionSchema = z.enum(['allow-all', 'step-through', 'deny-plan', 'continue', 'stop']);
export type PlanAction = z.infer<typeof PlanActionSchema>;
/**
 * approve = Allow once; allow-session also grants the command's shape until the window closes;
 * undo restores the file a finished edit step changed (when it has not changed since).
 */
export const StepActionSchema = z.enum(['approve', 'allow-session', 'deny', 'skip', 'edit', 'undo']);
export type StepAction = z.infer<typeof StepActionSchema>;
