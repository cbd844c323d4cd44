import { randomUUID } from 'node:crypto';
import type { ConversationItem } from '../../../shared/agent';
import type { AutoEnd, AutoStopper, AutoSummary, AutoView } from '../../../shared/companion';
import type { Settings } from '../../../shared/settings';
import type { PlanRules } from '../plan/plan';
import type { PlanStop } from '../plan/planEvents';
import { autoEndNote, planStopFor } from './autoEndWords';
import { autoInstructions } from './autoInstructions';
import { AutoRun } from './autoRun';

/** What auto mode needs from the agent session. */
export interface AutoModeHost {
  settings(): Settings['companion'];
  /** The conversation's items: the run's plan cards are its steps. */
  items(): readonly ConversationItem[];
  /** A model request, a plan or a `! cmd` is in progress. */
  busy(): boolean;
  hasPane(paneId: number): boolean;
  /** Sends the task as a message with the instructions for the model; its item id, or undefined when nothing went out. */
  sendTask(paneId: number, task: string, instructions: string, itemId: string, data?: string): Promise<string | undefined>;
  /** Everything the agent does stops: the stream, the plan, the running step; `stop` says why, on the cards and to the model. */
  stopEverything(stop: PlanStop): void;
  addSummary(summary: AutoSummary): void;
  changed(): void;
  /** A run started in a pane, or ended (undefined). */
  runChanged?(paneId: number | undefined): void;
}

/**
 * `!auto <task>` for the agent session: at most one run at a time, its limits, how it ends
 * (the model's answer, a stop, a limit), Tandem's summary, and what the next request tells
 * the model about a run that ended without its say-so.
 */
export class AutoMode {
  private run: AutoRun | undefined;
  private endNote: string | undefined;

  constructor(private readonly host: AutoModeHost) {}

  /** The pane the run works in, if one runs. */
  get paneId(): number | undefined {
    return this.run?.paneId;
  }

  get running(): boolean {
    return this.run !== undefined;
  }

  /** The run was told to stop (its last step or answer may still be ending). */
  get stopping(): boolean {
    return this.run?.end !== undefined;
  }

  /** Once the run was told to stop: how its plans are cancelled (the cards and the model say why). */
  get planStop(): PlanStop | undefined {
    const end = this.run?.end;
    return end && planStopFor(end);
  }

  /** `data`: text piped into `tandem agent --auto`, sent before the task as data. */
  async start(paneId: number, task: string, data?: string): Promise<void> {
    if (!this.host.hasPane(paneId)) throw new Error(`There is no pane ${paneId}.`);
    if (this.run) throw new Error(`An auto run is already working on "${this.run.task}"; stop it first (Esc, or Stop on its banner).`);
    if (this.host.busy()) throw new Error('The agent is still working; wait for it or cancel it (Esc) first.');
    const settings = this.host.settings();
    const limits = {
      maxSteps: settings.auto_max_steps,
      stepTimeoutMs: settings.auto_step_timeout_seconds * 1000,
      totalMs: settings.auto_time_limit_minutes * 60_000,
      tokenBudget: settings.auto_token_budget,
    };
    const itemId = randomUUID();
    this.run = new AutoRun(task.trim(), paneId, itemId, limits, { stopEverything: (end) => this.host.stopEverything(planStopFor(end)), changed: () => this.host.changed() });
    this.host.runChanged?.(paneId);
    const sent = await this.host.sendTask(paneId, task, autoInstructions(paneId, limits.maxSteps), itemId, data);
    if (!sent) this.loopEnded({ kind: 'failed', detail: 'the task could not be sent' });
  }

  /** The banner's Stop, Esc in the panel, or Ctrl+C in the run's pane. */
  stop(by: AutoStopper): void {
    this.run?.stop({ kind: 'stopped', by });
  }

  /** The run's pane was closed: nothing is left for it to work in. */
  paneClosed(paneId: number): void {
    if (this.run?.paneId === paneId) this.run.stop({ kind: 'failed', detail: 'its pane was closed' });
  }

  /** A new conversation replaces the old one: the run ends with it, without a summary (there is no conversation to put it in). */
  abandon(): void {
    const run = this.run;
    if (!run) return;
    run.stop({ kind: 'stopped', by: 'panel' });
    this.run = undefined;
    this.endNote = undefined;
    this.host.runChanged?.(undefined);
  }

  view(): AutoView | undefined {
    return this.run?.view(this.host.items());
  }

  stepTimeoutMs(): number | undefined {
    return this.run?.stepTimeoutMs;
  }

  planRules(): PlanRules | undefined {
    return this.run?.planRules(this.host.items());
  }

  countTokens(tokens: number): void {
    this.run?.countTokens(tokens);
  }

  /** After a batch of steps: at the step limit, the run stops. */
  stepsRan(): void {
    this.run?.checkSteps(this.host.items());
  }

  /** The agent's loop ended: the run with it (`end` unless it was told to stop for another reason first). */
  loopEnded(end: AutoEnd): void {
    const run = this.run;
    if (!run) return;
    this.run = undefined;
    const summary = run.finish(this.host.items(), end);
    this.host.addSummary(summary);
    this.endNote = autoEndNote(run.task, summary.end);
    this.host.runChanged?.(undefined);
  }

  /** For the next request: how the last run ended, when the model did not end it itself (once). */
  takeEndNote(): string | undefined {
    const note = this.endNote;
    this.endNote = undefined;
    return note;
  }
}
