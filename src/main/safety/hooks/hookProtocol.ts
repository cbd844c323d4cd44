import { z } from 'zod';
import { HOOK_OUTPUT_CAP_BYTES, type HookProcessResult } from './hookProcess';
import type { HookDecision } from './hookTypes';

/** What one pre-exec hook said. Every failure has already become a deny with a reason. */
export interface HookAnswer {
  decision: HookDecision;
  reason?: string;
  command?: string;
  /** The deny is the hook failing (did not start, timed out, crashed, printed garbage), not its verdict. */
  failed?: true;
}

const REASON_CAP = 1000;
const STDERR_TAIL_CAP = 300;
const GARBAGE_PREVIEW_CAP = 80;

// Optional fields may also be null: hooks written in Python or JS often print None/null for "unset".
const ClaudeSpecificOutputSchema = z.strictObject({
  hookEventName: z.literal('PreToolUse').nullish(),
  permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).nullish(),
  permissionDecisionReason: z.string().nullish(),
  updatedInput: z.looseObject({ command: z.string().nullish() }).nullish(),
  additionalContext: z.string().nullish(),
});

/**
 * Tandem's answer and Claude Code's (current `hookSpecificOutput` and legacy top-level
 * `decision`) share one object. Strict: an unknown key is usually a typo of a decision
 * (`"decison": "deny"`), and ignoring it would fail open.
 */
const HookAnswerSchema = z.strictObject({
  decision: z.enum(['allow', 'deny', 'ask', 'approve', 'block']).nullish(),
  reason: z.string().nullish(),
  command: z.string().nullish(),
  hookSpecificOutput: ClaudeSpecificOutputSchema.nullish(),
  continue: z.boolean().nullish(),
  stopReason: z.string().nullish(),
  suppressOutput: z.boolean().nullish(),
  systemMessage: z.string().nullish(),
});

// Claude Code's legacy answer: approve = allow, block = deny.
const TOP_LEVEL_DECISIONS = { allow: 'allow', approve: 'allow', deny: 'deny', block: 'deny', ask: 'ask' } as const;

const DECISION_RANK: Record<HookDecision, number> = { none: 0, allow: 1, ask: 2, deny: 3 };

export function stricterDecision(a: HookDecision, b: HookDecision): boolean {
  return DECISION_RANK[a] > DECISION_RANK[b];
}

/**
 * Why a hook run failed (spawn error, timeout, signal, non-zero exit), or undefined when it exited 0.
 * Exit code 2 counts as a failure here; pre-exec treats it as a deliberate deny before asking.
 */
export function describeHookFailure(hook: string, run: HookProcessResult, timeoutMs: number): string | undefined {
  if (run.spawnError) return `hook ${hook} could not be started: ${describeSpawnError(run.spawnError)}`;
  if (run.timedOut) return `hook ${hook} timed out after ${formatSeconds(timeoutMs)}`;
  if (run.signal) return `hook ${hook} was killed by ${run.signal}${stderrTail(run.stderr)}`;
  if (run.exitCode !== 0) return `hook ${hook} exited with code ${run.exitCode ?? 'unknown'}${stderrTail(run.stderr)}`;
  return undefined;
}

/** Reads a finished pre-exec hook: exit 2 is a deny with stderr as reason, exit 0 is its stdout answer. */
export function interpretPreExecRun(hook: string, run: HookProcessResult, timeoutMs: number): HookAnswer {
  if (!run.spawnError && !run.timedOut && !run.signal && run.exitCode === 2) {
    const reason = capReason(run.stderr.trim());
    return { decision: 'deny', reason: reason || `hook ${hook} exited with code 2 (deny) without giving a reason on stderr` };
  }
  const failure = describeHookFailure(hook, run, timeoutMs);
  if (failure) return { decision: 'deny', reason: failure, failed: true };
  if (run.stdoutTruncated) return { decision: 'deny', reason: `hook ${hook} printed more than ${HOOK_OUTPUT_CAP_BYTES / 1024} KB on stdout`, failed: true };
  return parseHookAnswer(hook, run.stdout);
}

/** Parses a pre-exec hook's stdout. Empty means no opinion; anything not understood means deny. */
export function parseHookAnswer(hook: string, stdout: string): HookAnswer {
  const text = stdout.trim();
  if (text === '') return { decision: 'none' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { decision: 'deny', reason: `hook ${hook} printed something that is not JSON: ${JSON.stringify(preview(text))}`, failed: true };
  }
  const parsed = HookAnswerSchema.safeParse(json);
  if (!parsed.success) {
    return { decision: 'deny', reason: `hook ${hook} printed JSON that is not a hook answer: ${describeIssue(parsed.error)}`, failed: true };
  }
  return answerFrom(hook, parsed.data);
}

function answerFrom(hook: string, data: z.infer<typeof HookAnswerSchema>): HookAnswer {
  const specific = data.hookSpecificOutput;
  const opinions: { decision: HookDecision; reason?: string }[] = [];
  if (data.decision) opinions.push({ decision: TOP_LEVEL_DECISIONS[data.decision], reason: data.reason ?? undefined });
  if (specific?.permissionDecision) {
    opinions.push({
      decision: specific.permissionDecision === 'defer' ? 'ask' : specific.permissionDecision,
      reason: specific.permissionDecisionReason ?? data.reason ?? undefined,
    });
  }
  // Claude Code's `continue: false` stops the agent altogether; the closest thing here is a deny.
  if (data.continue === false) opinions.push({ decision: 'deny', reason: data.stopReason ?? data.reason ?? undefined });

  let answer: HookAnswer = { decision: 'none' };
  for (const opinion of opinions) if (stricterDecision(opinion.decision, answer.decision)) answer = opinion;
  if (answer.decision === 'deny') return { decision: 'deny', reason: capReason(answer.reason ?? '') || `hook ${hook} denied the command without giving a reason` };

  const commands = [data.command, specific?.updatedInput?.command].filter((command): command is string => typeof command === 'string');
  if (commands.length === 2 && commands[0] !== commands[1]) {
    return { decision: 'deny', reason: `hook ${hook} gave two different modified commands ("command" and "updatedInput.command")` };
  }
  const command = commands[0];
  if (command !== undefined && command.trim() === '') return { decision: 'deny', reason: `hook ${hook} modified the command to an empty one` };

  const reason = answer.reason ? capReason(answer.reason) : undefined;
  return { decision: answer.decision, ...(reason ? { reason } : {}), ...(command !== undefined ? { command } : {}) };
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unknown shape';
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

function describeSpawnError(error: Error): string {
  // The file was found when listing the hooks, so ENOENT almost always means its #! interpreter is missing.
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'ENOENT (is the interpreter on its #! line installed?)';
  return error.message;
}

function stderrTail(stderr: string): string {
  const text = stderr.trim();
  if (text === '') return '';
  return `: ${text.length > STDERR_TAIL_CAP ? `…${text.slice(-STDERR_TAIL_CAP)}` : text}`;
}

function capReason(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > REASON_CAP ? `${trimmed.slice(0, REASON_CAP)}…` : trimmed;
}

function preview(text: string): string {
  return text.length > GARBAGE_PREVIEW_CAP ? `${text.slice(0, GARBAGE_PREVIEW_CAP)}…` : text;
}

export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
