/**
 * Pre-exec and post-exec hooks of the approval gate: user executables in the hooks dir that see
 * each proposed command (as JSON on stdin) and may allow, deny, ask about or rewrite it. The
 * protocol is documented in docs/hooks.md; it also accepts Claude Code's PreToolUse answers.
 *
 * Fail closed: a hook that cannot be run, crashes, times out or answers something we do not
 * understand denies the command, and the reason says which hook and what went wrong.
 */
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { listHooks, type HookEvent, type HookFile } from './hookFiles';
import { postExecInput, preExecInput } from './hookInput';
import { runHookProcess } from './hookProcess';
import { describeHookFailure, interpretPreExecRun, stricterDecision } from './hookProtocol';
import type { HookAction, HookOptions, HookVerdict, PostExecAction, PostExecHookResult } from './hookTypes';

export type { HookAction, HookDecision, HookOptions, HookVerdict, PostExecAction, PostExecHookResult } from './hookTypes';

export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;

/**
 * Runs `pre-exec` and `pre-exec.*` in name order. Each sees the command as modified by the hooks
 * before it. The first deny stops the run and wins; otherwise ask beats allow beats none.
 */
export async function runPreExecHooks(hooksDir: string, action: HookAction, options: HookOptions = {}): Promise<HookVerdict> {
  try {
    const listing = await listHooks(hooksDir, 'pre-exec');
    if ('error' in listing) return { decision: 'deny', reason: listing.error, failed: true };
    if (listing.hooks.length === 0) return { decision: 'none' };
    const unrunnable = listing.hooks.find((hook) => hook.problem !== undefined);
    if (unrunnable) return { decision: 'deny', reason: unrunnable.problem, hook: unrunnable.name, failed: true };

    const timeoutMs = effectiveTimeout(options);
    const cwd = await hookCwd(action);
    let command = action.command;
    let modifiedBy: string | undefined;
    let verdict: HookVerdict = { decision: 'none' };
    for (const hook of listing.hooks) {
      const run = await runHook(hook, 'pre-exec', preExecInput({ ...action, command }), cwd, timeoutMs, options);
      const answer = interpretPreExecRun(hook.name, run, timeoutMs);
      if (answer.decision === 'deny') return withoutUndefined({ decision: 'deny' as const, reason: answer.reason, hook: hook.name, failed: answer.failed });
      if (answer.command !== undefined && answer.command !== command) {
        command = answer.command;
        modifiedBy = hook.name;
      }
      if (stricterDecision(answer.decision, verdict.decision)) verdict = { decision: answer.decision, reason: answer.reason, hook: hook.name };
    }
    return withoutUndefined({ ...verdict, command: command !== action.command ? command : undefined, hook: verdict.hook ?? modifiedBy });
  } catch (error) {
    return { decision: 'deny', reason: `hooks could not be run: ${(error as Error).message}`, failed: true };
  }
}

/** Runs `post-exec` and `post-exec.*` in name order; their stdout is ignored. Never throws. */
export async function runPostExecHooks(hooksDir: string, action: PostExecAction, options: HookOptions = {}): Promise<PostExecHookResult[]> {
  try {
    const listing = await listHooks(hooksDir, 'post-exec');
    if ('error' in listing) return [{ hook: 'post-exec', ok: false, message: listing.error }];
    if (listing.hooks.length === 0) return [];
    const timeoutMs = effectiveTimeout(options);
    const cwd = await hookCwd(action);
    const results: PostExecHookResult[] = [];
    for (const hook of listing.hooks) {
      if (hook.problem !== undefined) {
        results.push({ hook: hook.name, ok: false, message: hook.problem });
        continue;
      }
      const run = await runHook(hook, 'post-exec', postExecInput(action), cwd, timeoutMs, options);
      const failure = describeHookFailure(hook.name, run, timeoutMs);
      results.push(failure ? { hook: hook.name, ok: false, message: failure } : { hook: hook.name, ok: true });
    }
    return results;
  } catch (error) {
    return [{ hook: 'post-exec', ok: false, message: `hooks could not be run: ${(error as Error).message}` }];
  }
}

function runHook(hook: HookFile, event: HookEvent, input: Record<string, unknown>, cwd: string, timeoutMs: number, options: HookOptions) {
  return runHookProcess(hook.path, {
    cwd,
    env: { ...(options.env ?? process.env), TANDEM_HOOK_EVENT: event },
    input: `${JSON.stringify(input)}\n`,
    timeoutMs,
  });
}

function effectiveTimeout(options: HookOptions): number {
  const timeoutMs = options.timeoutMs;
  return timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : DEFAULT_HOOK_TIMEOUT_MS;
}

/** The action's cwd when it still exists (the pane may have cd'd into a dir since removed), else home. */
/** The step's directory when it is one here; home for a step on another host (the same path here is another directory). */
async function hookCwd({ cwd, host }: Pick<HookAction, 'cwd' | 'host'>): Promise<string> {
  if (host !== undefined) return homedir();
  try {
    if ((await stat(cwd)).isDirectory()) return cwd;
  } catch {
    // Falls through to home.
  }
  return homedir();
}

function withoutUndefined(verdict: HookVerdict): HookVerdict {
  return Object.fromEntries(Object.entries(verdict).filter(([, value]) => value !== undefined)) as HookVerdict;
}
