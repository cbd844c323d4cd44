import type { EngineLog } from '../../log/engineLog';
import { classifyCommand, type RiskResult, type RiskLevel } from '../commandRisk';
import { runPostExecHooks, runPreExecHooks, type PostExecHookResult } from '../hooks/hookRunner';
import type { PolicyFiles } from '../policy/policyFiles';
import { policyDecision, policyDenyList, policyFileRead, type PolicyVerdict } from '../policy/policyEvaluator';
import { commandShape } from './commandShape';
import type { OwnFilesWatch } from './ownFilesWatch';
import { SessionGrants } from './sessionGrants';
import { tandemFileWrite } from './tandemFiles';

/** One command the agent wants to run, with where it would run and what it belongs to. */
export interface ProposedCommand {
  command: string;
  /** The model's one-sentence reason for it (hooks see it). */
  purpose?: string;
  cwd: string;
  paneId?: number;
  conversationId?: string;
  planId?: string;
  step?: number;
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
}

export interface ApprovalGateOptions {
  home: string;
  /** Paths the agent may change only through the user (ssh keys, shell startup files, Tandem's files). */
  protectedPaths: readonly string[];
  /** Tandem's own files and folders: no command of the agent may change them, whatever the policy says. */
  tandemPaths: readonly string[];
  policy: PolicyFiles;
  hooksDir: string;
  hookTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Notices steps that changed Tandem's own files anyway. */
  ownFiles: OwnFilesWatch;
  /** Where hooks that fail (rather than deny) are recorded. */
  log?: Pick<EngineLog, 'warning'>;
}

/**
 * The decision cascade every command of the agent goes through, in order: Tandem's own files
 * (never), policy deny lists → pre-exec hooks → policy allow/ask/deny with the session's
 * grants → the human. RED commands stay blocked unless a policy allow pattern names them.
 */
export class ApprovalGate {
  readonly grants = new SessionGrants();

  constructor(private readonly options: ApprovalGateOptions) {}

  get ownFiles(): OwnFilesWatch {
    return this.options.ownFiles;
  }

  classify(command: string, cwd: string): Promise<RiskResult> {
    return classifyCommand(command, { cwd: cwd || this.options.home, home: this.options.home, protectedPaths: [...this.options.protectedPaths] });
  }

  /** `classified`: the command's risk in `proposed.cwd` when the caller has it already (each command text is classified once). */
  async decide(proposed: ProposedCommand, classified?: RiskResult): Promise<GateDecision> {
    const cwd = proposed.cwd || this.options.home;
    let command = proposed.command;
    // A result that read files (git's config) is not reused: an earlier step may have changed them.
    let risk = classified && !classified.readsFiles ? classified : await this.classify(command, cwd);
    const layers = this.options.policy.layers();
    const early = this.beforeHooks(command, cwd, risk, layers);
    if (early) return early;

    const hook = await runPreExecHooks(
      this.options.hooksDir,
      { tool: 'run_command', ...proposed, cwd, risk: { level: risk.level, reasons: risk.reasons } },
      { timeoutMs: this.options.hookTimeoutMs, env: this.options.env },
    );
    if (hook.decision === 'deny') {
      if (hook.failed) this.options.log?.warning('hook', `pre-exec hook ${hook.hook ?? '(hooks folder)'} failed, so \`${command}\` was denied: ${hook.reason ?? ''}`);
      return this.result('deny', risk, command, `hook ${hook.hook ?? 'pre-exec'}: ${hook.reason || 'denied'}`, 'hook');
    }
    let modifiedBy: string | undefined;
    if (hook.command !== undefined && hook.command !== command) {
      // The changed command is judged afresh, deny lists included.
      command = hook.command;
      modifiedBy = hook.hook ?? 'pre-exec';
      risk = await this.classify(command, cwd);
      const again = this.beforeHooks(command, cwd, risk, layers);
      if (again) return { ...again, modifiedBy };
    }

    const policy = policyDecision(layers, this.facts(command, cwd, risk));
    const decided = (decision: GateDecision['decision'], rule: string, by: DecidedBy) => ({ ...this.result(decision, risk, command, rule, by), modifiedBy });
    if (policy.decision === 'deny') return decided('deny', policy.rule, 'policy');
    if (risk.level === 'red' && !(policy.decision === 'allow' && policy.explicit)) {
      return { ...decided('ask', 'builtin: RED commands are blocked unless edited, or named exactly (no wildcards) by a policy allow_patterns entry', 'builtin'), blocked: true };
    }
    const hookRule = `hook ${hook.hook ?? 'pre-exec'}${hook.reason ? `: ${hook.reason}` : ''}`;
    if (hook.decision === 'ask') return decided('ask', hookRule, 'hook');
    // A broken policy file asks for everything: its deny lists are unknown, so a hook cannot vouch for the command.
    if (hook.decision === 'allow' && !layers.some((layer) => layer.error)) return decided('allow', hookRule, 'hook');
    if (policy.decision === 'allow') return decided('allow', policy.rule, byOf(policy));
    const shape = commandShape(risk.parts);
    if (risk.level !== 'red' && this.grants.has(shape)) return decided('allow', `allowed for this session: ${shape}`, 'grant');
    return decided('ask', policy.rule, byOf(policy));
  }

  /** A command of the agent ran to its end: the post-exec hooks hear of it (their answers are only reported). */
  afterExecution(ran: ProposedCommand & { level: RiskLevel; reasons: string[]; exitCode?: number; durationMs?: number }): Promise<PostExecHookResult[]> {
    const { level, reasons, ...action } = ran;
    return runPostExecHooks(this.options.hooksDir, { tool: 'run_command', ...action, risk: { level, reasons } }, { timeoutMs: this.options.hookTimeoutMs, env: this.options.env });
  }

  /** policy.toml files that exist but cannot be used (everything asks meanwhile). */
  policyProblems(): string[] {
    return this.options.policy.problems();
  }

  /** Reads by the agent's file tools: refused when the policy's filesystem globs say so. */
  fileRead(path: string, cwd: string): PolicyVerdict | undefined {
    return policyFileRead(this.options.policy.layers(), path, { cwd: cwd || this.options.home, home: this.options.home });
  }

  private beforeHooks(command: string, cwd: string, risk: RiskResult, layers: ReturnType<PolicyFiles['layers']>): GateDecision | undefined {
    const own = tandemFileWrite(command, risk, this.options.tandemPaths, this.options.home, cwd);
    if (own) return this.result('deny', risk, command, `builtin: the agent may never change Tandem's own files (${own})`, 'builtin');
    const denied = policyDenyList(layers, this.facts(command, cwd, risk));
    if (denied) return this.result('deny', risk, command, denied.rule, 'policy');
    return undefined;
  }

  private facts(command: string, cwd: string, risk: RiskResult) {
    return { command, cwd, home: this.options.home, level: risk.level, parts: risk.parts };
  }

  private result(decision: GateDecision['decision'], risk: RiskResult, command: string, rule: string, decidedBy: DecidedBy): GateDecision {
    return { decision, blocked: false, level: risk.level, reasons: risk.reasons, rule, decidedBy, command, shape: commandShape(risk.parts) };
  }
}

function byOf(verdict: PolicyVerdict): DecidedBy {
  return verdict.rule.startsWith('default:') ? 'default' : 'policy';
}
