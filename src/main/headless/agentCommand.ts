import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AGENT_EXIT, AgentStreamEventSchema, type AgentInput, type AgentStreamEvent, type ApprovalMode } from './agentStream';
import type { ChildApprovalRequest } from '../agent/children/childAgents';
import { agentDepth } from '../agent/children/agentDepth';
import { ParentLink, type PassedGrant } from './parentLink';
import { AGENT_USAGE, parseAgentArguments, type AgentOptions } from './agentOptions';
import { approvalRequest, type Approver, type RelayedAnswer } from './approvals/approvalRequest';
import { StdioApprover } from './approvals/stdioApprover';
import { TerminalApprover } from './approvals/terminalApprover';
import { TerminalPrompter } from './approvals/terminalPrompter';
import { usageError, type AgentIo } from './agentIo';
import { roundedUsd, type PendingApproval } from './conversationEvents';
import { headlessEngineOptions, type HeadlessPlanRules } from './headlessEngineOptions';
import { HeadlessSession } from './headlessSession';
import { instructionSource, type Instruction } from './instructionSource';
import { NdjsonSink, QuietSink, StreamWriter, type EventSink } from './output/eventSink';
import { TerminalSink } from './output/terminalSink';
import { runOutcome, type RunStop } from './runOutcome';
import { loadSession, saveSession } from './savedSessions';
import { tandemPaths } from '../settings/paths';
import type { SpanStream } from '../telemetry/traceSinks';
import { shellPathProblem } from '../panes/shellChoice';

/** How long a stopped run (a signal, the time limit) may take to wind down before it exits anyway. */
const STOP_GRACE_MS = 3_000;

/** `tandem agent …`: runs the agent headless and returns the exit status (docs/agent-protocol.md). */
export async function runAgentCommand(argv: string[], io: AgentIo): Promise<number> {
  const parsed = parseAgentArguments(argv, io.env);
  if (parsed.kind === 'help') {
    io.stdout.write(`${AGENT_USAGE}\n`);
    return AGENT_EXIT.ok;
  }
  if (parsed.kind === 'version') {
    io.stdout.write(`tandem ${io.version}\n`);
    return AGENT_EXIT.ok;
  }
  if (parsed.kind === 'error') return usageError(io, parsed.message);
  const options = parsed.options;
  const problem = optionProblem(options, io.env);
  if (problem) return usageError(io, problem);
  if (options.watchers) {
    const { runWatchers } = await import('./watchersRun');
    return runWatchers(options, options.file ?? process.cwd(), io);
  }
  if (options.acp) {
    const { runAcpAgent } = await import('./acp/acpAgent');
    return runAcpAgent(options, io);
  }
  return new AgentRun(options, io).run();
}

/** Files and folders named on the command line must be usable before anything starts. */
function optionProblem(options: AgentOptions, env: NodeJS.ProcessEnv): string | undefined {
  const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
  const shellProblem = options.shell !== undefined ? shellPathProblem(options.shell, env) : undefined;
  if (shellProblem) return `--shell ${options.shell}: ${shellProblem}.`;
  if (options.cwd !== undefined && !(existsSync(options.cwd) && statSync(options.cwd).isDirectory())) return `--cwd ${options.cwd}: there is no such directory.`;
  const missingPolicy = options.policies.find((policy) => !isFile(policy));
  if (missingPolicy !== undefined) return `--policy ${missingPolicy}: there is no such file.`;
  if (options.config !== undefined && !isFile(options.config)) return `--config ${options.config}: there is no such file.`;
  if (options.watchers) return options.file !== undefined && !(existsSync(options.file) && statSync(options.file).isDirectory()) ? `--watchers ${options.file}: there is no such directory.` : undefined;
  if (options.file !== undefined && !isFile(options.file)) return `${options.file}: there is no such file of instructions.`;
  return undefined;
}

/** One run: its session, where its events go, who approves, and how it ends. */
class AgentRun {
  private readonly sink: EventSink;
  private readonly terminal: TerminalSink | undefined;
  private readonly prompter: TerminalPrompter | undefined;
  private readonly approve: ApprovalMode;
  private approver: Approver | undefined;
  private session!: HeadlessSession;
  private stop: RunStop | undefined;
  private stopped: (() => void) | undefined;
  private readonly startedAt = Date.now();
  private requestCount = 0;
  /** `--parent`: the line to the parent agent (a child agent's run). */
  private link: ParentLink | undefined;
  /** What the run has spent so far (its children included), for the budget it shares with them. */
  private spentUsd = 0;
  /** What the run said before its `session` line (a notice about the shell): it goes out right after it. */
  private beforeSession: AgentStreamEvent[] | undefined = [];
  /** `TANDEM_TRACE_SINK=stdout`: spans go on the NDJSON stream until its `result` line (later ones go to the file). */
  private readonly spanStream: SpanStream | undefined;
  private resultSent = false;

  constructor(
    private readonly options: AgentOptions,
    private readonly io: AgentIo,
  ) {
    const out = new StreamWriter(io.stdout, () => this.halt({ kind: 'reader-gone' }));
    const terminalOut = io.stdout.isTTY === true;
    // A child agent asks its parent (--parent): its approvals go over that line, as with stdio.
    const wantsTerminal = options.parent === undefined && (options.approve === 'ask' || (options.approve === undefined && terminalOut));
    this.prompter = wantsTerminal ? TerminalPrompter.open(() => this.interrupt('SIGINT')) : undefined;
    this.approve = options.parent !== undefined ? 'stdio' : (options.approve ?? (this.prompter ? 'ask' : 'policy'));
    if (options.quiet) this.sink = new QuietSink(out, new StreamWriter(io.stderr));
    else if (options.json || !terminalOut) this.sink = new NdjsonSink(out);
    else this.sink = this.terminal = new TerminalSink(out, !io.env.NO_COLOR);
    if (this.sink instanceof NdjsonSink) {
      this.spanStream = {
        write: (span) => {
          if (this.resultSent) return false;
          this.emit({ type: 'span', span });
          return true;
        },
      };
    }
  }

  async run(): Promise<number> {
    if (this.approve === 'ask' && !this.prompter) return usageError(this.io, '--approve=ask needs a terminal to ask at, and this process has none; use --approve=policy or --approve=stdio.');
    const onSignal = (signal: NodeJS.Signals) => this.interrupt(signal);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onSignal);
    let inherited: PassedGrant[] = [];
    if (this.options.parent) {
      try {
        const connected = await ParentLink.connect(this.options.parent, agentDepth(this.io.env), (input) => this.fromParent(input), () => this.halt({ kind: 'reader-gone' }));
        this.link = connected.link;
        inherited = connected.grants;
      } catch (error) {
        return usageError(this.io, (error as Error).message);
      }
    }
    const timer = this.options.timeoutSeconds ? setTimeout(() => this.halt({ kind: 'timeout', seconds: this.options.timeoutSeconds! }), this.options.timeoutSeconds * 1000) : undefined;
    try {
      this.session = new HeadlessSession({
        engine: headlessEngineOptions(this.options, this.io, () => this.planRules(), () => this.session.view, {
          spanStream: this.spanStream,
          requestRefusal: () => this.budgetRefusal(),
          childAgents: {
            asks: (request, from, reply) => this.relayChild(request, from, reply),
            budgetLeftUsd: () => (this.options.budgetUsd !== undefined ? this.options.budgetUsd - this.spentUsd : undefined),
            childCost: (usd) => this.childCost(usd),
          },
        }),
        cwd: resolve(this.options.cwd ?? '.'),
        shell: this.options.shell,
        cols: this.io.stdout.isTTY ? Math.max(40, this.io.stdout.columns || 120) : 120,
        rows: 40,
        model: this.options.model,
        backend: this.options.backend,
        emit: (event) => this.emit(event),
        askFor: (pending) => this.askFor(pending),
      });
      this.approver = this.makeApprover();
      this.session.engine.agent.inheritGrants(inherited);
      if (this.options.session) {
        const saved = loadSession(this.stateDir, this.options.session);
        if ('error' in saved) return usageError(this.io, saved.error);
        this.session.engine.agent.resume(saved);
      }
      this.session.start();
      const view = this.session.view;
      this.emit({
        type: 'session',
        version: 1,
        session_id: this.session.sessionId,
        trace_id: this.session.traceId,
        tandem_version: this.io.version,
        model: view.model,
        backend: view.backend,
        cwd: this.session.cwd,
        shell: this.session.shell,
        approve: this.approve,
        auto: this.options.auto,
      });
      await Promise.race([this.work(), new Promise<void>((resolve) => (this.stopped = resolve))]);
      const outcome = runOutcome(this.session.view, undefined, this.stop);
      const usage = this.session.view.usage;
      this.emit({
        type: 'result',
        subtype: outcome.subtype,
        is_error: outcome.exitCode !== AGENT_EXIT.ok,
        exit_code: outcome.exitCode,
        duration_ms: Date.now() - this.startedAt,
        num_turns: outcome.numTurns,
        usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, context_tokens: usage.contextTokens },
        ...(usage.costUsd !== undefined ? { total_cost_usd: roundedUsd(usage.costUsd) } : {}),
        ...(usage.costUnknown ? { cost_unknown: true as const } : {}),
        session_id: this.session.sessionId,
        result: outcome.result,
        ...(outcome.reason ? { reason: outcome.reason } : {}),
      });
      return outcome.exitCode;
    } finally {
      clearTimeout(timer);
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      process.removeListener('SIGHUP', onSignal);
      this.approver?.dispose();
      if (this.session) {
        const problem = saveSession(this.stateDir, this.session.engine.agent.savedHistory());
        if (problem) this.io.stderr.write(`tandem agent: ${problem}\n`);
      }
      await this.session?.close().catch(() => undefined);
      await this.link?.close();
      this.prompter?.close();
      await this.sink.close();
    }
  }

  private get stateDir(): string {
    return tandemPaths(this.io.env).stateDir;
  }

  /** Takes the instructions in turn until there are none left or the run is stopped. */
  private async work(): Promise<void> {
    const source = instructionSource(this.options, this.io, this.prompter, {
      approval: (answer) => (this.approver instanceof StdioApprover ? this.approver.answer(answer) : this.emit({ type: 'error', message: 'An approval came on stdin, but this run does not take approvals there (--approve=stdio).' })),
      interrupt: () => this.session.interrupt(),
      problem: (message) => this.emit({ type: 'error', message }),
      closed: () => (this.approver instanceof StdioApprover ? this.approver.inputEnded() : undefined),
    });
    for await (const instruction of source) {
      if (this.stop) break;
      await this.take(instruction);
      if (this.stop) break;
      if (this.session.shellExit) {
        this.stop = { kind: 'shell', detail: `the agent's shell ended: ${this.session.shellExit.message}` };
        break;
      }
    }
  }

  private async take(instruction: Instruction): Promise<void> {
    this.emit({ type: 'instruction', text: instruction.text, ...(instruction.data ? { piped_bytes: instruction.data.bytes } : {}) });
    if (instruction.data?.redacted) this.emit({ type: 'notice', level: 'info', message: `Piped data: ${instruction.data.redacted}.` });
    const data = instruction.data?.content;
    if (this.options.auto) await this.session.auto(instruction.text, data);
    else await this.session.instruct(instruction.text, data);
  }

  private emit(event: AgentStreamEvent): void {
    if (this.beforeSession && event.type !== 'session') {
      this.beforeSession.push(event);
      return;
    }
    this.sink.event(event);
    this.link?.event(event);
    if (event.type === 'result') this.resultSent = true;
    if (event.type === 'session') {
      const early = this.beforeSession ?? [];
      this.beforeSession = undefined;
      for (const said of early) this.emit(said);
    }
    if (event.type === 'usage') this.checkBudgets(event);
  }

  private askFor(pending: PendingApproval): void {
    const request = approvalRequest(pending, `${pending.step.id}.${++this.requestCount}`);
    if (!this.approver) {
      // Nobody to ask (a mode that refuses does not get here); deny rather than wait forever.
      this.session.decide(pending, 'deny', { reason: 'Nobody is there to approve it.' });
      return;
    }
    if (this.approver instanceof TerminalApprover && this.terminal === undefined) this.emit(request);
    this.approver.ask(request, pending);
  }

  private makeApprover(): Approver | undefined {
    if (this.approve === 'stdio') {
      return new StdioApprover(
        (request) => this.emit(request),
        (pending, action, options) => this.session.decide(pending, action, options),
        (message) => this.emit({ type: 'error', message }),
      );
    }
    if (this.approve === 'ask' && this.prompter) {
      return new TerminalApprover(this.prompter, this.terminal, (pending, action, options) => this.session.decide(pending, action, options), () => this.halt({ kind: 'quit' }));
    }
    return undefined;
  }

  /** Who refuses what nobody approves in every plan of the run. */
  private planRules(): HeadlessPlanRules {
    return { name: this.options.watcher ? `watcher:${this.options.watcher}` : `tandem agent --approve=${this.approve}`, refuseAsking: this.approve === 'policy' || this.approve === 'deny', greenRuns: this.approve === 'policy' };
  }

  /** A message from the parent agent (`--parent`): the answer to an approval request, or an interrupt. */
  private fromParent(input: AgentInput): void {
    if (input.type === 'approval' && this.approver instanceof StdioApprover) this.approver.answer(input);
    else if (input.type === 'interrupt') this.session?.interrupt();
  }

  /** A child agent's step asks: the run's approval mode answers it, as it would the run's own. */
  private relayChild(request: ChildApprovalRequest, from: { depth: number; pid?: number }, reply: (answer: RelayedAnswer) => void): void {
    // A grandchild's request, passed on by the child, names the grandchild: who asks is the deepest agent.
    const agent = request.agent ?? { depth: from.depth, ...(from.pid ? { pid: from.pid } : {}) };
    const parsed = AgentStreamEventSchema.safeParse({ ...request, id: `child${from.pid ?? ''}.${request.id}`, agent });
    if (!parsed.success || parsed.data.type !== 'approval_request') {
      reply({ decision: 'deny', note: 'The parent agent could not read the request.' });
      return;
    }
    if (!this.approver) {
      this.emit(parsed.data);
      reply({ decision: 'deny', note: `The parent run (--approve=${this.approve}) refuses steps that ask.` });
      return;
    }
    this.approver.relay(parsed.data, reply);
  }

  /** A child agent ended: its cost counts at once, so a budget the tree has spent stops the run before its next request. */
  private childCost(usd: number): void {
    // The conversation's cost counts the child's by now (ChildAgents reports `ended` first); the usage event may not have come yet.
    this.spentUsd = Math.max(this.spentUsd, this.session.engine.agent.view().usage.costUsd ?? this.spentUsd + usd);
    const refusal = this.budgetRefusal();
    if (refusal) this.halt({ kind: 'limit', detail: refusal });
  }

  private budgetRefusal(): string | undefined {
    const { budgetUsd } = this.options;
    if (!budgetUsd || this.spentUsd < budgetUsd) return undefined;
    return `--budget-usd ${budgetUsd} was reached ($${this.spentUsd.toFixed(4)} spent, its child agents included)`;
  }

  private checkBudgets(event: Extract<AgentStreamEvent, { type: 'usage' }>): void {
    this.spentUsd = event.total_cost_usd ?? this.spentUsd;
    const { maxTokens, budgetUsd } = this.options;
    const tokens = event.usage.input_tokens + event.usage.output_tokens;
    if (maxTokens && tokens >= maxTokens) this.halt({ kind: 'limit', detail: `--max-tokens ${maxTokens} was reached (${tokens} tokens used)` });
    else if (budgetUsd && (event.total_cost_usd ?? 0) >= budgetUsd) this.halt({ kind: 'limit', detail: `--budget-usd ${budgetUsd} was reached ($${event.total_cost_usd!.toFixed(4)} spent)` });
  }

  private interrupt(signal: string): void {
    // A second signal while winding down: leave at once.
    if (this.stop?.kind === 'interrupted') this.stopped?.();
    this.halt({ kind: 'interrupted', signal });
  }

  /** Stops everything the agent does (the running step's process group is killed) and ends the run. */
  private halt(stop: RunStop): void {
    if (this.stop) return;
    this.stop = stop;
    this.session?.stopEverything();
    const grace = setTimeout(() => this.stopped?.(), STOP_GRACE_MS);
    grace.unref?.();
  }
}

