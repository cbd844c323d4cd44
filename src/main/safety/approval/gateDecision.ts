/** What the approval gate is asked (a proposed command or file edit) and what it answers: shared by the gate and the decisions it delegates. */
import type { RemoteHost, RiskLevel } from '../riskTypes';

/** Where a proposal was made: the pane's directory and the conversation, plan and step it belongs to. */
interface ProposalPlace {
  cwd: string;
  paneId?: number;
  conversationId?: string;
  planId?: string;
  step?: number;
}

/** One command the agent wants to run, with where it would run and what it belongs to. */
export interface ProposedCommand extends ProposalPlace {
  command: string;
  /** The model's one-sentence reason for it (hooks see it). */
  purpose?: string;
  /** Variables the step runs with besides the shell's own (NO_PAGER_ENV): judged with them. */
  environment?: Readonly<Record<string, string>>;
  /** The pane's shell is on this other host (reached with `ssh`): the step runs there, and is judged without this machine's files. */
  remote?: RemoteHost;
}

/** A file change of the agent's file tools, with where it was asked for (an edit outside the pane's `cwd` always asks). */
export interface ProposedEdit extends ProposalPlace {
  tool: 'edit_file' | 'write_file';
  /** The file, absolute (a symlink's target). */
  path: string;
  /** The path as asked for, absolute, when a symlink made it differ: judged too (a link in the project to ~/.bashrc). */
  linkPath?: string;
  /** The step's one-line description (`edit_file src/app.ts`): what hooks and the audit log see. */
  command: string;
  purpose?: string;
}

export type DecidedBy = 'builtin' | 'policy' | 'hook' | 'grant' | 'default';

export interface GateDecision {
  /** allow: runs without asking; ask: the human decides; deny: never runs as proposed. */
  decision: 'allow' | 'ask' | 'deny';
  /** RED and not explicitly allowed by policy: it may only be edited, denied or skipped. */
  blocked: boolean;
  level: RiskLevel;
  reasons: string[];
  rule: string;
  decidedBy: DecidedBy;
  /** The command to run: a hook may have changed it. */
  command: string;
  /** The hook that changed the command, if one did. */
  modifiedBy?: string;
  /** What "Allow for this session" would grant. */
  shape: string;
  /** Asks for this step itself: Allow all and session grants do not cover it. */
  personal?: boolean;
  /** The step runs on this other host (the card says "on host X"; the audit trail records it). */
  host?: string;
}
