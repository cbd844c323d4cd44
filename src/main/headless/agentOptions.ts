import { parseArgs } from 'node:util';
import { ApprovalMode } from './agentStream';

export interface AgentOptions {
  /** `-c`: one instruction, then exit. */
  command?: string;
  /** A file of instructions (`tandem agent tasks.tandem`, or a `#!/usr/bin/env -S tandem agent` script). */
  file?: string;
  json: boolean;
  quiet: boolean;
  inputFormat: 'text' | 'json';
  acp: boolean;
  model?: string;
  backend?: 'anthropic' | 'openai-compatible';
  config?: string;
  /** `--policy` files (several may be given; `TANDEM_POLICY` comes first): each can only narrow. */
  policies: string[];
  /** `--parent SOCKET`: a child agent started by a spawn_agent step; its events and approvals go to the parent there. */
  parent?: string;
  cwd?: string;
  shell?: string;
  maxSteps?: number;
  maxTokens?: number;
  budgetUsd?: number;
  timeoutSeconds?: number;
  auto: boolean;
  /** Absent: ask when there is a terminal to ask at, policy otherwise. */
  approve?: ApprovalMode;
  /** `--session ID`: go on with the conversation of an earlier run. */
  session?: string;
  /** `--watcher NAME`: the run of this watcher; its decisions are audited with `(watcher:NAME)`. */
  watcher?: string;
  /** `--watchers [DIR]`: run the watchers of the user file and DIR's project (`file` is DIR then). */
  watchers: boolean;
}

export type ParsedAgentArguments = { kind: 'run'; options: AgentOptions } | { kind: 'help' } | { kind: 'version' } | { kind: 'error'; message: string };

export const AGENT_USAGE = `Usage: tandem agent [OPTIONS] [-c INSTRUCTION | FILE]

Runs Tandem's agent without a window: the same agent, approval gate, audit log and secret
scrubbing as the app, with its own shell in its own pty. Instructions come from -c, from a
FILE of \`# …\` lines, or from stdin (one per line). Data piped in with -c is context for the
model, never instructions. Output is readable text on a terminal and NDJSON otherwise.

  -c, --command TEXT      run one instruction and exit (the leading # is optional)
      --json              NDJSON events on stdout, also on a terminal
  -q, --quiet             print only the final answer (for $(...))
      --input-format F    text (default) or json: stdin carries NDJSON messages
                          (instruction, approval, interrupt; see docs/agent-protocol.md)
      --approve MODE      ask: ask at the terminal (the default when there is one)
                          policy: run what needs no approval, refuse what would ask (the default otherwise)
                          stdio: approval requests as events, answers as NDJSON on stdin
                          deny: run only what the policy allows; refuse everything else
      --auto              work until the task is done, like !auto in the app
      --policy FILE       a policy for this run; it can only narrow policy.toml (repeatable)
      --parent SOCKET     a child agent: report to, and ask, the parent agent listening there
      --config FILE       use this config.toml
      --model NAME        the model
      --backend NAME      anthropic or openai-compatible
      --cwd DIR           where the agent's shell starts (default: here)
      --shell PATH        the agent's shell (default: config.toml's, then $SHELL)
      --max-steps N       refuse steps after N in this run
      --max-tokens N      stop once N tokens were used
      --budget-usd X      stop once the run has cost X dollars
      --timeout SECONDS   stop after this long (exit 124)
      --session ID        go on with the conversation of an earlier run (its session_id)
      --watcher NAME      the run of this watcher (the app starts it): audited as watcher:NAME
      --watchers [DIR]    run the watchers of your watchers.toml and DIR's project (default: here)
                          until SIGTERM; firings and their runs are events (docs/watchers.md)
      --acp               speak the Agent Client Protocol on stdio (for editors)
      --version, --help

Environment: TANDEM_CONFIG (as --config), TANDEM_POLICY (as --policy), TANDEM_MODEL (as --model),
ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL, OPENAI_API_KEY / OPENAI_BASE_URL.

Exit status: 0 done; 1 the agent failed or its last step failed; 2 usage error; 3 the last step
was refused or denied and the run ended there; 4 the model could not be reached; 124 --timeout;
130 interrupted (SIGINT, SIGTERM).`;

function positiveNumber(name: string, text: string | undefined, integer: boolean): number | string | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!text.trim() || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) return `${name} needs a ${integer ? 'whole ' : ''}number above 0, got "${text}".`;
  return value;
}

export function parseAgentArguments(argv: string[], env: NodeJS.ProcessEnv): ParsedAgentArguments {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        command: { type: 'string', short: 'c' },
        json: { type: 'boolean' },
        quiet: { type: 'boolean', short: 'q' },
        'input-format': { type: 'string' },
        approve: { type: 'string' },
        auto: { type: 'boolean' },
        policy: { type: 'string', multiple: true },
        parent: { type: 'string' },
        config: { type: 'string' },
        model: { type: 'string' },
        backend: { type: 'string' },
        cwd: { type: 'string' },
        shell: { type: 'string' },
        'max-steps': { type: 'string' },
        'max-tokens': { type: 'string' },
        'budget-usd': { type: 'string' },
        timeout: { type: 'string' },
        acp: { type: 'boolean' },
        session: { type: 'string' },
        watcher: { type: 'string' },
        watchers: { type: 'boolean' },
        version: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return { kind: 'error', message: (error as Error).message.replace(/\. To specify a positional argument.*$/s, '.') };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  if (positionals.length > 1) return { kind: 'error', message: `tandem agent takes one file of instructions, got ${positionals.length}: ${positionals.join(' ')}.` };
  const file = positionals[0];
  if (values.watchers && (values.command !== undefined || values.acp || values.parent !== undefined || values.session !== undefined || values.watcher !== undefined)) return { kind: 'error', message: '--watchers starts its own runs: no -c, --acp, --parent, --session or --watcher with it.' };
  if (file !== undefined && values.command !== undefined) return { kind: 'error', message: 'Give -c or a file of instructions, not both.' };
  if (values.command !== undefined && !values.command.trim().replace(/^#+/, '').trim()) return { kind: 'error', message: '-c needs an instruction, e.g. -c "# find the 5 largest files here".' };
  const inputFormat = values['input-format'] ?? 'text';
  if (inputFormat !== 'text' && inputFormat !== 'json') return { kind: 'error', message: `--input-format is text or json, got "${inputFormat}".` };
  const approve = values.approve === undefined ? undefined : ApprovalMode.safeParse(values.approve);
  if (approve && !approve.success) return { kind: 'error', message: `--approve is ask, policy, stdio or deny, got "${values.approve}".` };
  if (values.parent !== undefined && approve !== undefined) return { kind: 'error', message: '--parent sends the approvals to the parent agent: no --approve with it.' };
  if (approve?.data === 'stdio' && inputFormat !== 'json') return { kind: 'error', message: '--approve=stdio reads the answers as NDJSON on stdin: add --input-format json.' };
  if (values.watcher !== undefined && !/^[A-Za-z0-9_.-]{1,64}$/.test(values.watcher)) return { kind: 'error', message: `--watcher takes a watcher's name (letters, digits, _ . -), got "${values.watcher}".` };
  const backend = values.backend;
  if (backend !== undefined && backend !== 'anthropic' && backend !== 'openai-compatible') return { kind: 'error', message: `--backend is anthropic or openai-compatible, got "${backend}".` };
  const numbers = {
    maxSteps: positiveNumber('--max-steps', values['max-steps'], true),
    maxTokens: positiveNumber('--max-tokens', values['max-tokens'], true),
    budgetUsd: positiveNumber('--budget-usd', values['budget-usd'], false),
    timeoutSeconds: positiveNumber('--timeout', values.timeout, false),
  };
  for (const value of Object.values(numbers)) if (typeof value === 'string') return { kind: 'error', message: value };
  if (values.acp && (values.command !== undefined || file !== undefined || values.json || values.quiet)) return { kind: 'error', message: '--acp takes its prompts from the editor: no -c, file, --json or --quiet with it.' };
  const options: AgentOptions = {
    command: values.command,
    file,
    json: values.json === true,
    quiet: values.quiet === true,
    inputFormat,
    acp: values.acp === true,
    model: values.model ?? (env.TANDEM_MODEL || undefined),
    backend,
    config: values.config ?? (env.TANDEM_CONFIG || undefined),
    policies: [...(env.TANDEM_POLICY ? [env.TANDEM_POLICY] : []), ...(values.policy ?? [])],
    parent: values.parent,
    cwd: values.cwd,
    shell: values.shell,
    maxSteps: numbers.maxSteps as number | undefined,
    maxTokens: numbers.maxTokens as number | undefined,
    budgetUsd: numbers.budgetUsd as number | undefined,
    timeoutSeconds: numbers.timeoutSeconds as number | undefined,
    auto: values.auto === true,
    approve: approve?.data,
    session: values.session,
    watcher: values.watcher,
    watchers: values.watchers === true,
  };
  return { kind: 'run', options };
}
