import type { EngineLog } from '../../log/engineLog';
import { classifyCommand } from '../commandRisk';
import type { RemoteHost, RiskLevel, RiskResult } from '../riskTypes';
import { runPostExecHooks, runPreExecHooks, type PostExecHookResult } from '../hooks/hookRunner';
import type { PolicyFiles } from '../policy/policyFiles';
import { policyDecision, policyDenyList, policyFileRead, policyFileWrite, type PolicyVerdict } from '../policy/policyEvaluator';
import { decideAudio, type ProposedListen } from './audioDecision';
import { commandShape } from './commandShape';
import type { DecidedBy, GateDecision, ProposedCommand, ProposedEdit } from './gateDecision';
import type { OwnFilesWatch } from './ownFilesWatch';
import { remoteHome, remoteProtectedPaths, remoteShape } from './remoteHost';
import { SessionGrants } from './sessionGrants';
import { tandemFileWrite } from './tandemFiles';
import { decideUiAction, uiActionShape, type ProposedUiAction } from './uiActionDecision';

export type { DecidedBy, GateDecision, ProposedCommand, ProposedEdit } from './gateDecision';

/** Words that may run a command without the variables it was given (`unset`, `env -i`, `sudo`), or set them itself. */
const MAY_DROP_VARIABLES = /\b(unset|env|sudo|doas|su|pkexec|runuser|systemd-run|export|declare|typeset|readonly|local)\b|GIT_PAGER|PAGER=/;

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
  private exclusionKey: string | undefined;
  private exclusions: readonly string[] | undefined;

  constructor(private readonly options: ApprovalGateOptions) {}

  get ownFiles(): OwnFilesWatch {
    return this.options.ownFiles;
  }

  /**
   * `environment`: variables the command runs with (an agent step's); a line that may drop them is judged without.
   * `remote`: the command runs on that host, in `cwd` there: judged without this machine's files (remoteHost.ts).
   */
  classify(command: string, cwd: string, environment?: Readonly<Record<string, string>>, remote?: RemoteHost): Promise<RiskResult> {
    const kept = environment && !MAY_DROP_VARIABLES.test(command) ? environment : undefined;
    const { home, protectedPaths } = this.options;
    if (!remote) return classifyCommand(command, { cwd: cwd || home, home, protectedPaths: [...protectedPaths], environment: kept });
    const there = remoteHome(remote);
    return classifyCommand(command, { cwd: cwd || there, home: there, protectedPaths: remoteProtectedPaths(protectedPaths, home, there), environment: kept, remote });
  }

  /**
   * `classified`: the command's risk in `proposed.cwd` when the caller has it already (each command text is classified once).
   * A step on another host (`proposed.remote`) is judged as docs/ssh.md says: policy allows other than `allow_read_only`
   * and hook allows do not run it without asking, and a session grant covers it only when made for that host.
   */
  async decide(proposed: ProposedCommand, classified?: RiskResult): Promise<GateDecision> {
    const { remote } = proposed;
    const cwd = proposed.cwd || (remote ? remoteHome(remote) : this.options.home);
    let command = proposed.command;
    // A result that read files (git's config) is not reused: an earlier step may have changed them. Nor is one for another place.
    const reusable = classified && !classified.readsFiles && classified.host === remote?.host;
    let risk = reusable ? classified : await this.classify(command, cwd, proposed.environment, remote);
    const layers = this.options.policy.layers();
    const home = remote ? remoteHome(remote) : this.options.home;
    const there = (decision: GateDecision): GateDecision => (remote ? { ...decision, host: remote.host } : decision);
    const early = this.beforeHooks(command, cwd, risk, layers, home);
    if (early) return there(early);

    const hook = await runPreExecHooks(
      this.options.hooksDir,
      { tool: 'run_command', ...withoutEnvironment(proposed), cwd, host: remote?.host, risk: { level: risk.level, reasons: risk.reasons } },
      { timeoutMs: this.options.hookTimeoutMs, env: this.options.env },
    );
    if (hook.decision === 'deny') {
      if (hook.failed) this.options.log?.warning('hook', `pre-exec hook ${hook.hook ?? '(hooks folder)'} failed, so \`${command}\` was denied: ${hook.reason ?? ''}`);
      return there(this.result('deny', risk, command, `hook ${hook.hook ?? 'pre-exec'}: ${hook.reason || 'denied'}`, 'hook'));
    }
    let modifiedBy: string | undefined;
    if (hook.command !== undefined && hook.command !== command) {
      // The changed command is judged afresh, deny lists included.
      command = hook.command;
      modifiedBy = hook.hook ?? 'pre-exec';
      risk = await this.classify(command, cwd, proposed.environment, remote);
      const again = this.beforeHooks(command, cwd, risk, layers, home);
      if (again) return there({ ...again, modifiedBy });
    }

    const policy = policyDecision(layers, this.facts(command, cwd, risk, home));
    const shape = remote ? remoteShape(commandShape(risk.parts), remote) : commandShape(risk.parts);
    const decided = (decision: GateDecision['decision'], rule: string, by: DecidedBy): GateDecision => there({ ...this.result(decision, risk, command, rule, by), shape, modifiedBy });
    if (policy.decision === 'deny') return decided('deny', policy.rule, 'policy');
    // On another host only allow_read_only counts: allow patterns and modes were written for this machine.
    const policyAllows = policy.decision === 'allow' && (!remote || policy.readOnly === true);
    if (risk.level === 'red' && !(policyAllows && policy.explicit)) {
      return { ...decided('ask', 'builtin: RED commands are blocked unless edited, or named exactly (no wildcards) by a policy allow_patterns entry', 'builtin'), blocked: true };
    }
    const hookRule = `hook ${hook.hook ?? 'pre-exec'}${hook.reason ? `: ${hook.reason}` : ''}`;
    if (hook.decision === 'ask') return decided('ask', hookRule, 'hook');
    // A broken policy file asks for everything: its deny lists are unknown, so a hook cannot vouch for the command.
    if (hook.decision === 'allow' && !remote && !layers.some((layer) => layer.error)) return decided('allow', hookRule, 'hook');
    if (policyAllows) return decided('allow', policy.rule, byOf(policy));
    if (risk.level !== 'red' && this.grants.has(shape)) return decided('allow', `allowed for this session: ${shape}`, 'grant');
    if (remote && (policy.decision === 'allow' || hook.decision === 'allow')) {
      // As if nothing had allowed it: the default asks (so an `!auto` run still runs a GREEN step, as without that allow).
      const which = hook.decision === 'allow' ? hookRule : policy.rule;
      return decided('ask', `default: runs on ${remote.host} over ssh, where ${which} does not apply (only allow_read_only and a grant for ${remote.host} do), so it asks`, 'default');
    }
    return decided('ask', policy.rule, byOf(policy));
  }

  /**
   * A step of the agent ran to its end — a command (`run_command`), or an edit that was written
   * (`edit_file`, `write_file`): the post-exec hooks hear of it (their answers are only reported).
   */
  afterExecution(ran: ProposedCommand & { tool?: string; level: RiskLevel; reasons: string[]; exitCode?: number; durationMs?: number }): Promise<PostExecHookResult[]> {
    const { level, reasons, tool, remote, ...action } = ran;
    return runPostExecHooks(this.options.hooksDir, { tool: tool ?? 'run_command', ...action, host: remote?.host, risk: { level, reasons } }, { timeoutMs: this.options.hookTimeoutMs, env: this.options.env });
  }

  /** policy.toml files that exist but cannot be used (everything asks meanwhile). */
  policyProblems(): string[] {
    return this.options.policy.problems();
  }

  /**
   * The cascade for a file edit: Tandem's own files (never) → policy filesystem deny globs →
   * ssh keys and shell startup files (RED: blocked) → pre-exec hooks → outside the pane's cwd
   * (always asks) → a hook's or policy write glob's allow, or a session grant → ask (YELLOW).
   */
  async decideEdit(proposed: ProposedEdit): Promise<GateDecision> {
    const { path, command, tool } = proposed;
    const { home, tandemPaths, protectedPaths } = this.options;
    const cwd = proposed.cwd;
    const inside = cwd !== '' && path.startsWith(`${cwd.replace(/\/+$/, '')}/`);
    const shape = inside ? `file edits under ${cwd}` : `file edits of ${path}`;
    const reasons = [inside ? `It changes ${shortPath(path, home)}.` : `It changes ${shortPath(path, home)}, outside the pane's working directory${cwd ? ` (${shortPath(cwd, home)})` : ''}.`];
    const decided = (decision: GateDecision['decision'], rule: string, decidedBy: DecidedBy, level: RiskLevel = 'yellow'): GateDecision => ({
      decision,
      blocked: false,
      level,
      reasons,
      rule,
      decidedBy,
      command,
      shape,
    });
    const named = proposed.linkPath && proposed.linkPath !== path ? [path, proposed.linkPath] : [path];
    const within = (places: readonly string[]) => places.find((place) => named.some((candidate) => candidate === place || candidate.startsWith(`${place}/`)));
    const own = within(tandemPaths);
    if (own) return decided('deny', `builtin: the agent may never change Tandem's own files (${shortPath(own, home)})`, 'builtin');
    const layers = this.options.policy.layers();
    const verdicts = named.map((candidate) => policyFileWrite(layers, candidate, { cwd: cwd || home, home }));
    const policy = verdicts.find((verdict) => verdict?.decision === 'deny') ?? verdicts.find((verdict) => verdict?.decision === 'ask') ?? verdicts[0];
    if (policy?.decision === 'deny') return decided('deny', policy.rule, 'policy');
    const guarded = within(protectedPaths);
    if (guarded) {
      reasons.push(`${shortPath(guarded, home)} holds keys or shell startup files, which the agent does not change.`);
      return { ...decided('ask', 'builtin: ssh keys and shell startup files are changed by the user, never by a file tool', 'builtin', 'red'), blocked: true };
    }
    const hook = await runPreExecHooks(
      this.options.hooksDir,
      { tool, command, purpose: proposed.purpose, cwd: cwd || home, paneId: proposed.paneId, conversationId: proposed.conversationId, planId: proposed.planId, step: proposed.step, risk: { level: 'yellow', reasons } },
      { timeoutMs: this.options.hookTimeoutMs, env: this.options.env },
    );
    const hookRule = `hook ${hook.hook ?? 'pre-exec'}${hook.reason ? `: ${hook.reason}` : ''}`;
    if (hook.decision === 'deny') return decided('deny', `hook ${hook.hook ?? 'pre-exec'}: ${hook.reason || 'denied'}`, 'hook');
    if (!inside) return { ...decided('ask', "builtin: a file outside the pane's working directory is changed only when you approve it (Allow all does not)", 'builtin'), personal: true };
    // A hook cannot rewrite an edit: its changed "command" makes the step ask.
    if (hook.decision === 'ask' || (hook.command !== undefined && hook.command !== command)) return decided('ask', hookRule, 'hook');
    if (policy?.decision === 'ask') return decided('ask', policy.rule, 'policy');
    if (hook.decision === 'allow' && !layers.some((layer) => layer.error)) return decided('allow', hookRule, 'hook');
    if (policy?.decision === 'allow') return decided('allow', policy.rule, 'policy');
    if (this.grants.has(shape)) return decided('allow', `allowed for this session: ${shape}`, 'grant');
    return decided('ask', 'default: file edits ask (YELLOW)', 'default');
  }

  /**
   * A look at the screen (a screenshot, the window list): `[approval.vision] screenshot` — a
   * deny in any layer denies, an allow needs no layer to ask or fail — then the session's
   * grant for `shape`, else ask. `approvedBefore`: this conversation already saw this kind of
   * target, so it does not ask again.
   */
  decideVision(look: { command: string; shape: string; approvedBefore: boolean }): GateDecision {
    const layers = this.options.policy.layers();
    const modes = layers.map((layer) => ({ file: layer.file, mode: layer.error ? 'ask' : layer.policy?.approval?.vision?.screenshot }));
    const decided = (decision: GateDecision['decision'], rule: string, decidedBy: DecidedBy): GateDecision => ({
      decision,
      blocked: false,
      level: 'yellow',
      reasons: ['It sends an image of the screen (or what is on it) to the model.'],
      rule,
      decidedBy,
      command: look.command,
      shape: look.shape,
    });
    const denied = modes.find((layer) => layer.mode === 'deny');
    if (denied) return decided('deny', `policy ${denied.file}: [approval.vision] screenshot = "deny"`, 'policy');
    const allowed = modes.find((layer) => layer.mode === 'allow');
    if (allowed && !modes.some((layer) => layer.mode === 'ask')) return decided('allow', `policy ${allowed.file}: [approval.vision] screenshot = "allow"`, 'policy');
    if (this.grants.has(look.shape)) return decided('allow', `allowed for this session: ${look.shape}`, 'grant');
    if (look.approvedBefore) return decided('allow', 'you approved this kind of look earlier in this conversation', 'grant');
    return decided('ask', 'default: the first look at each kind of target in a conversation asks', 'default');
  }

  /** A `listen` step: `[approval.audio]` (audioDecision.ts). */
  decideAudio(listen: ProposedListen): GateDecision {
    return decideAudio(this.options.policy.layers(), this.grants, listen);
  }

  /** A UI action (uiActionDecision.ts); `kind` names what Allow for session covers when there is no window. */
  decideUi(action: ProposedUiAction, kind: string): Promise<GateDecision> {
    const { policy, hooksDir, hookTimeoutMs, env } = this.options;
    return decideUiAction(action, uiActionShape(action, kind), { policy, grants: this.grants, hooksDir, hookTimeoutMs, env });
  }

  /**
   * The windows never captured (desktop/privacy): the `[approval.vision] exclude` lists of
   * every layer together, or `defaults` when no layer has one. The same array comes back
   * while the files are unchanged. A broken file keeps the defaults in.
   */
  visionExclusions(defaults: readonly string[]): readonly string[] {
    const layers = this.options.policy.layers();
    const lists = layers.map((layer) => (layer.error ? defaults : layer.policy?.approval?.vision?.exclude));
    const named = lists.filter((list): list is string[] => list !== undefined);
    const patterns = named.length === 0 ? defaults : [...new Set(named.flat())];
    const key = patterns.join('\n');
    if (key !== this.exclusionKey) {
      this.exclusionKey = key;
      this.exclusions = patterns;
    }
    return this.exclusions ?? defaults;
  }

  /** What the policy files alone (deny lists first, then the strictest layer) say about a command, without hooks or grants. */
  async policyVerdict(command: string, cwd: string): Promise<PolicyVerdict> {
    const dir = cwd || this.options.home;
    const risk = await this.classify(command, dir);
    const layers = this.options.policy.layers();
    const facts = this.facts(command, dir, risk);
    return policyDenyList(layers, facts) ?? policyDecision(layers, facts);
  }

  /** The run policy files of this agent (a child agent gets them too, so it can never have more). */
  runPolicyFiles(): string[] {
    return this.options.policy.files.filter((layer) => layer.kind === 'run').map((layer) => layer.file);
  }

  /** Reads by the agent's file tools: refused when the policy's filesystem globs say so. */
  fileRead(path: string, cwd: string): PolicyVerdict | undefined {
    return policyFileRead(this.options.policy.layers(), path, { cwd: cwd || this.options.home, home: this.options.home });
  }

  private beforeHooks(command: string, cwd: string, risk: RiskResult, layers: ReturnType<PolicyFiles['layers']>, home: string): GateDecision | undefined {
    const own = tandemFileWrite(command, risk, this.options.tandemPaths, this.options.home, cwd);
    if (own) return this.result('deny', risk, command, `builtin: the agent may never change Tandem's own files (${own})`, 'builtin');
    const denied = policyDenyList(layers, this.facts(command, cwd, risk, home));
    if (denied) return this.result('deny', risk, command, denied.rule, 'policy');
    return undefined;
  }

  /** `home`: where `$HOME` in the policy's globs points (on another host, its guessed home). */
  private facts(command: string, cwd: string, risk: RiskResult, home = this.options.home) {
    return { command, cwd, home, level: risk.level, parts: risk.parts };
  }

  private result(decision: GateDecision['decision'], risk: RiskResult, command: string, rule: string, decidedBy: DecidedBy): GateDecision {
    return { decision, blocked: false, level: risk.level, reasons: risk.reasons, rule, decidedBy, command, shape: commandShape(risk.parts) };
  }
}

function byOf(verdict: PolicyVerdict): DecidedBy {
  return verdict.rule.startsWith('default:') ? 'default' : 'policy';
}

function shortPath(path: string, home: string): string {
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** What hooks are told of a command: everything but the step's environment (not part of their input) and the remote host (told as `host`). */
function withoutEnvironment(proposed: ProposedCommand): Omit<ProposedCommand, 'environment' | 'remote'> {
  const { environment: _environment, remote: _remote, ...rest } = proposed;
  return rest;
}
