import type { HookAction, PostExecAction } from './hookTypes';

/**
 * The JSON a hook reads on stdin: Tandem's own fields plus the fields of Claude Code's
 * PreToolUse/PostToolUse input, so a Claude Code hook for the Bash tool works unchanged.
 * Absent optional values are null rather than missing, so every key is always there.
 */
export function preExecInput(action: HookAction): Record<string, unknown> {
  return {
    event: 'pre-exec',
    tool: action.tool,
    command: action.command,
    purpose: action.purpose ?? null,
    cwd: action.cwd,
    host: action.host ?? null,
    pane: action.paneId ?? null,
    conversation: action.conversationId ?? null,
    plan: action.planId ?? null,
    step: action.step ?? null,
    risk: { level: action.risk.level, reasons: action.risk.reasons },
    hook_event_name: 'PreToolUse',
    session_id: action.conversationId ?? null,
    permission_mode: 'default',
    tool_name: claudeToolName(action.tool),
    tool_input: claudeToolInput(action),
  };
}

export function postExecInput(action: PostExecAction): Record<string, unknown> {
  const exitCode = action.exitCode ?? null;
  return {
    ...preExecInput(action),
    event: 'post-exec',
    exit_code: exitCode,
    duration_ms: action.durationMs ?? null,
    hook_event_name: 'PostToolUse',
    tool_response: { exit_code: exitCode },
  };
}

function claudeToolName(tool: string): string {
  return tool === 'run_command' ? 'Bash' : tool;
}

function claudeToolInput(action: HookAction): Record<string, string> {
  return action.purpose === undefined ? { command: action.command } : { command: action.command, description: action.purpose };
}
