/** The public shapes of the hook runner: what a hook is asked about, and what it can answer. */

export interface HookAction {
  /** The agent tool being gated, e.g. 'run_command'. */
  tool: string;
  command: string;
  cwd: string;
  /** The agent's one-sentence purpose for the step; sent to hooks as Claude Code's `tool_input.description`. */
  purpose?: string;
  paneId?: number;
  /** The step runs on this other host (the pane's shell reached with `ssh`); `cwd` is a directory there. */
  host?: string;
  conversationId?: string;
  planId?: string;
  /** Plan step index, 1-based. */
  step?: number;
  risk: { level: 'green' | 'yellow' | 'red'; reasons: string[] };
}

export interface PostExecAction extends HookAction {
  exitCode?: number;
  durationMs?: number;
}

export type HookDecision = 'allow' | 'deny' | 'ask' | 'none';

export interface HookVerdict {
  /** 'none' means no hook gave an opinion (no hooks, or each exited 0 with empty stdout). */
  decision: HookDecision;
  reason?: string;
  /** Set when a hook modified the command. */
  command?: string;
  /** File name of the hook that decided (or, for 'none', that modified the command). */
  hook?: string;
  /** The deny comes from a hook (or the hooks folder) failing, not from a hook's verdict. */
  failed?: true;
}

export interface HookOptions {
  /** Per hook; default 10 000. */
  timeoutMs?: number;
  /** Environment for the hooks; default process.env. TANDEM_HOOK_EVENT is always added. */
  env?: NodeJS.ProcessEnv;
}

export interface PostExecHookResult {
  hook: string;
  ok: boolean;
  message?: string;
}
