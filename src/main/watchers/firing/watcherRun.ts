import { spawn, type ChildProcess } from 'node:child_process';
import type { ChildAgentView } from '../../../shared/agent';
import type { ChildApprovalAnswer } from '../../agent/children/childAgents';
import { ChildChannel } from '../../agent/children/childChannel';
import { ChildProgress, type ChildApprovalRequest } from '../../agent/children/childProgress';
import { scrubSecrets } from '../../safety/secretScrubber';
import type { WatcherFiring } from '../watcherFiring';

/** `[watchers] wait_limit`: how long a step waits for an answer, in ms and as the user wrote it. */
export interface WaitLimit {
  ms: number;
  text: string;
}

export interface WatcherRunHost {
  /** The argv that starts `tandem` again. */
  selfCommand: readonly string[];
  env: NodeJS.ProcessEnv;
  /** The run's card changed. */
  changed(view: ChildAgentView): void;
  /** A step of the run waits for a decision (its card shows it; a desktop notification says so). */
  asks(request: ChildApprovalRequest): void;
  waitLimit(): WaitLimit;
  /** Nobody answered `request` within the limit: the step was denied and the run is ending. */
  timedOut(request: ChildApprovalRequest, reason: string, limit: WaitLimit): void;
}

/** What the model is told: the watcher's instruction and why it fired, scrubbed of secrets (the reason may quote a command line). */
export function watcherInstruction(firing: WatcherFiring): string {
  return `${firing.watcher.instruction}\n\nThe watcher "${firing.watcher.name}" fired: ${scrubSecrets(firing.reason).text}\n${scrubSecrets(firing.details).text}`.trim();
}

/**
 * One run of a watcher: a child agent (`tandem agent --parent SOCKET --watcher NAME …`) in its
 * own shell and its own pty, started in the watcher's folder and never typed into a pane of
 * the user. Its events and the steps that ask come over the child channel; `ask` runs ask for
 * every step the gate asks about, `auto` runs (`--auto`) run only what policy allows, and what
 * would ask waits here for a decision, at most `wait_limit`: then the step is denied and the run
 * ends, so a run nobody looks at does not hold its run slot for ever. `done` settles when the
 * process has ended.
 */
export class WatcherRun {
  readonly done: Promise<void>;
  private readonly channel: ChildChannel;
  private readonly progress: ChildProgress;
  private readonly process: ChildProcess;
  /** The steps that wait for an answer: request id → the timer that denies them. */
  private readonly waitTimers = new Map<string, NodeJS.Timeout>();

  constructor(firing: WatcherFiring, mode: 'ask' | 'auto', host: WatcherRunHost) {
    const instruction = watcherInstruction(firing);
    this.progress = new ChildProgress(
      {
        instruction,
        may: [mode === 'auto' ? 'Only what your policy allows runs; a step that would ask waits here; RED steps are refused.' : 'Every step the gate asks about waits here for you.', `Its own shell in ${firing.cwd}, not one of your panes.`],
        depth: 1,
        state: 'starting',
        steps: [],
        filesChanged: [],
        asking: [],
      },
      () => host.changed(this.progress.view),
    );
    this.channel = new ChildChannel(
      (message) => {
        if (message.type === 'hello') this.channel.send({ type: 'welcome', grants: [] });
        const request = this.progress.take(message);
        if (!request) return;
        this.waitForAnswer(request, host);
        host.asks(request);
      },
      () => undefined,
    );
    const argv = [...host.selfCommand, 'agent', '--parent', this.channel.path, '--cwd', firing.cwd, '--watcher', firing.watcher.name, ...(mode === 'auto' ? ['--auto'] : []), '-c', instruction];
    this.process = spawn(argv[0]!, argv.slice(1), { cwd: firing.cwd, env: host.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    this.process.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    this.done = new Promise((resolve) => {
      const ended = (why: string): void => {
        const state = this.progress.view.state;
        if (state === 'starting' || state === 'running') this.progress.end('failed', why);
        for (const timer of this.waitTimers.values()) clearTimeout(timer);
        this.waitTimers.clear();
        this.channel.close();
        resolve();
      };
      this.process.on('error', (error) => ended(`it could not start: ${error.message}`));
      this.process.on('exit', (code, signal) => ended(signal ? `it was stopped (${signal})` : `it ended without a result (exit ${code})${stderr.trim() ? `: ${stderr.trim().split('\n').pop()}` : ''}`));
    });
  }

  get view(): ChildAgentView {
    return this.progress.view;
  }

  answer(requestId: string, answer: ChildApprovalAnswer): void {
    if (!this.progress.answered(requestId)) throw new Error(`This watcher run is not waiting for ${requestId}.`);
    clearTimeout(this.waitTimers.get(requestId));
    this.waitTimers.delete(requestId);
    this.channel.send({ type: 'approval', id: requestId, ...answer });
  }

  private waitForAnswer(request: ChildApprovalRequest, host: WatcherRunHost): void {
    const limit = host.waitLimit();
    const timer = setTimeout(() => {
      this.waitTimers.delete(request.id);
      const reason = `Nobody answered \`${request.command}\` within ${limit.text} (the watchers' wait_limit): it was denied and the run ended.`;
      this.progress.timedOut(request.id, reason);
      host.timedOut(request, reason, limit);
      this.stop();
    }, limit.ms);
    this.waitTimers.set(request.id, timer);
  }

  stop(): void {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGTERM');
  }
}
