import { writeFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { ChildAgentView } from '../../../shared/agent';
import type { GateDecision } from '../../safety/approval/gateDecision';
import type { PolicyVerdict } from '../../safety/policy/policyEvaluator';
import { ChildChannel } from './childChannel';
import { ChildProgress, type ChildApprovalRequest } from './childProgress';

export type { ChildApprovalRequest } from './childProgress';
import { policyLines, readSpawnPolicy, refusedByParent, type SpawnPolicy } from './childPolicy';
import type { SpawnRequest } from './spawnRequest';

/** The answer a child's StdioApprover takes (an `approval` message). */
export interface ChildApprovalAnswer {
  decision: 'allow' | 'allow_session' | 'deny';
  note?: string;
  command?: string;
}

export interface ChildAgentsHost {
  /** The argv that starts this program (`tandem …`); undefined: no child agent can be started from here. */
  selfCommand(): readonly string[] | undefined;
  /** This agent's depth: 0 for the app's or a `tandem agent` started by hand, 1 for a child … */
  depth: number;
  maxDepth(): number;
  /** What this agent's policy files say about a command (a spawn's asks are checked against it). */
  policyVerdict(command: string, cwd: string): Promise<PolicyVerdict>;
  /** This agent's own run policy files: the child gets them too. */
  runPolicyFiles(): string[];
  /** The conversation's backend and model: a child uses them unless the spawn names a model. */
  model?(): { backend: string; model: string };
  /** The session grants a child starts with: this agent's, when `[ai] pass_grants_to_children` is on; none otherwise. */
  grantsToPass?(): { shape: string; example: string }[];
  /** What is left of the budget shared by this agent and its children (undefined: none set). */
  budgetLeftUsd?(): number | undefined;
  /** A spawn step's child view changed (toolUseId of its step). */
  changed(toolUseId: string, view: ChildAgentView): void;
  /** A child's step asks. Absent: the card shows it and the user answers there (`answer`). */
  asks?(request: ChildApprovalRequest, from: { depth: number; pid?: number; stepCommand: string }, reply: (answer: ChildApprovalAnswer) => void): void;
  /** A child ended: its usage counts in this conversation. */
  ended(view: ChildAgentView): void;
  /** A child ended having cost this much: a budget shared with it is checked before the next request. */
  childCost?(usd: number): void;
}

interface Child {
  toolUseId: string;
  command: string;
  channel: ChildChannel;
  progress: ChildProgress;
  /** Why the spawn cannot start, found when it is judged. */
  policy?: SpawnPolicy;
  policyError?: string;
  cwd: string;
  over: boolean;
}

/**
 * The child agents of one conversation: for each spawn_agent step, the command line that
 * starts the child (`tandem agent --parent SOCKET …`, typed in the pane like any step), the
 * channel it reports on, and its view on the step's card. Refusals (depth, budget, a policy
 * that asks for what this agent's policy denies) come as the gate's verdict on the step.
 */
export class ChildAgents {
  private readonly children = new Map<string, Child>();

  constructor(private readonly host: ChildAgentsHost) {}

  /** The step a spawn_agent call proposes: its command line and its child's first view. */
  prepare(toolUseId: string, request: SpawnRequest, paneCwd: string): { command: string; child: ChildAgentView } {
    const depth = this.host.depth + 1;
    const cwd = request.cwd ? (isAbsolute(request.cwd) ? request.cwd : resolve(paneCwd || '.', request.cwd)) : paneCwd;
    const read = request.policy ? readSpawnPolicy(request.policy, paneCwd || '.') : undefined;
    const budget = this.budgetFor(request);
    const grants = this.host.grantsToPass?.() ?? [];
    const progress = new ChildProgress(
      {
        instruction: request.instruction,
        may: [
          ...policyLines(read?.ok ? read.policy : undefined),
          grants.length ? `It starts with your session grants: ${grants.map((grant) => grant.shape).join(', ')}.` : 'It starts with none of your session grants.',
          `Depth ${depth} of at most ${this.host.maxDepth()}.`,
          ...(request.max_steps ? [`At most ${request.max_steps} steps.`] : []),
          ...(budget !== undefined ? [`At most $${budget.toFixed(2)}.`] : []),
          ...(request.model ? [`Model ${request.model}.`] : []),
        ],
        depth,
        state: 'starting',
        steps: [],
        filesChanged: [],
        asking: [],
      },
      () => this.changed(toolUseId),
    );
    const channel = new ChildChannel(
      (message) => this.message(toolUseId, message),
      () => this.gone(toolUseId),
    );
    let policyFile: string | undefined;
    if (read?.ok) {
      policyFile = channel.file('spawn-policy.toml');
      writeFileSync(policyFile, read.policy.text, { mode: 0o600 });
    }
    const self = this.host.selfCommand() ?? ['tandem'];
    const parentModel = this.host.model?.();
    const model = request.model ?? parentModel?.model;
    const argv = [
      ...self,
      'agent',
      '--parent',
      channel.path,
      ...[...this.host.runPolicyFiles(), ...(policyFile ? [policyFile] : [])].flatMap((file) => ['--policy', file]),
      ...(cwd ? ['--cwd', cwd] : []),
      ...(parentModel ? ['--backend', parentModel.backend] : []),
      ...(model ? ['--model', model] : []),
      ...(request.max_steps ? ['--max-steps', String(request.max_steps)] : []),
      ...(budget !== undefined ? ['--budget-usd', budget.toFixed(4)] : []),
      '-c',
      request.instruction,
    ];
    const command = argv.map(shellWord).join(' ');
    this.children.set(toolUseId, { toolUseId, command, channel, progress, policy: read?.ok ? read.policy : undefined, policyError: read && !read.ok ? read.error : undefined, cwd, over: false });
    return { command, child: progress.view };
  }

  /** The gate's verdict on a spawn step, refused when the child may not start (the verdict otherwise). */
  async judge(command: string, decision: GateDecision): Promise<GateDecision> {
    const child = [...this.children.values()].find((candidate) => candidate.command === command);
    // An edited spawn step is an ordinary command: the gate's verdict stands.
    if (!child || decision.decision === 'deny') return decision;
    const refusal = await this.refusal(child);
    if (!refusal) return decision;
    child.progress.end('failed', refusal.why);
    return { ...decision, decision: 'deny', blocked: false, rule: `spawn_agent: ${refusal.why}`, decidedBy: refusal.by };
  }

  /** A decision on a child's step that asks, from the spawn step's card. */
  answer(toolUseIdOrStep: string, requestId: string, answer: ChildApprovalAnswer): void {
    const child = this.children.get(toolUseIdOrStep);
    if (!child || child.over) throw new Error('That child agent is no longer running.');
    if (!child.progress.answered(requestId)) throw new Error(`The child agent is not waiting for ${requestId}.`);
    child.channel.send({ type: 'approval', id: requestId, ...answer });
  }

  /** The spawn step ended (or its plan went): the channel closes and the child's usage is counted. */
  stepEnded(toolUseId: string): void {
    const child = this.children.get(toolUseId);
    if (!child || child.over) return;
    child.over = true;
    child.channel.close();
    if (child.progress.view.state === 'starting' || child.progress.view.state === 'running') child.progress.end('stopped', 'its step ended before it reported a result');
    this.host.ended(child.progress.view);
    const cost = child.progress.view.usage?.costUsd;
    if (cost) this.host.childCost?.(cost);
  }

  /** Whether a step's command is a spawn this conversation prepared. */
  has(toolUseId: string): boolean {
    return this.children.has(toolUseId);
  }

  dispose(): void {
    for (const toolUseId of this.children.keys()) this.stepEnded(toolUseId);
    this.children.clear();
  }

  private async refusal(child: Child): Promise<{ why: string; by: 'policy' | 'builtin' } | undefined> {
    const depth = this.host.depth + 1;
    const max = this.host.maxDepth();
    if (depth > max) return { why: max === 0 ? 'child agents are turned off ([ai] max_agent_depth = 0)' : `the depth limit is reached: a child here would be at depth ${depth}, and [ai] max_agent_depth is ${max}`, by: 'builtin' };
    if (!this.host.selfCommand()) return { why: 'this Tandem does not know how to start itself here, so it cannot start a child agent', by: 'builtin' };
    const left = this.host.budgetLeftUsd?.();
    if (left !== undefined && left <= 0) return { why: 'the budget shared by this agent and its children is spent', by: 'builtin' };
    if (child.policyError) return { why: child.policyError, by: 'policy' };
    if (child.policy) {
      const refused = await refusedByParent(child.policy.asked, (command) => this.host.policyVerdict(command, child.cwd));
      if (refused) return { why: refused, by: 'policy' };
    }
    return undefined;
  }

  private budgetFor(request: SpawnRequest): number | undefined {
    const left = this.host.budgetLeftUsd?.();
    if (left === undefined) return request.budget_usd;
    return Math.max(0, Math.min(left, request.budget_usd ?? left));
  }

  private message(toolUseId: string, message: Record<string, unknown>): void {
    const child = this.children.get(toolUseId);
    if (!child || child.over) return;
    // The child waits for this answer to its hello before it starts: the grants it may have are there before its first step.
    if (message.type === 'hello') child.channel.send({ type: 'welcome', grants: this.host.grantsToPass?.() ?? [] });
    const request = child.progress.take(message);
    if (!request) return;
    const asks = this.host.asks;
    if (asks) asks(request, { depth: child.progress.view.depth, pid: child.progress.view.pid, stepCommand: child.command }, (answer) => this.answer(toolUseId, request.id, answer));
  }

  private gone(toolUseId: string): void {
    const child = this.children.get(toolUseId);
    if (!child || child.over) return;
    const state = child.progress.view.state;
    if (state === 'starting' || state === 'running') child.progress.end('failed', 'it ended without a result');
  }

  private changed(toolUseId: string): void {
    const child = this.children.get(toolUseId);
    if (child) this.host.changed(toolUseId, child.progress.view);
  }
}

/** A word for the shell: bare when it is plain, in single quotes otherwise. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
