import type { Block, TerminalState } from '../../src/shared/blocks';
import { toDisposable, type Disposable } from '../../src/shared/events';
import type { AgentPane, PaneWatcher, TypeCommandOptions } from '../../src/main/agent/agentPane';
import type { BlockOutput } from '../../src/main/blocks/mirror/blockOutputs';
import type { RemoteShellInfo } from '../../src/main/osc/marks';
import { untilTrue } from './untilTrue';

/**
 * A pane for unit tests of the step and plan runners: it records what the agent typed and
 * sent (Ctrl+C, SIGKILL), and the test plays the shell — prompts, blocks starting and
 * finishing, output, a full-screen program, the shell exiting.
 */
export class FakePane implements AgentPane {
  cwd = '/home/user/project';
  state: TerminalState = 'PROMPT';
  exited = false;
  isAlternateScreen = false;
  readonly shellName = 'bash';
  stepEnvApplies = true;
  /** Commands typed, in order. */
  readonly typed: string[] = [];
  interrupts = 0;
  kills = 0;
  /** What killForeground answers: whether there was a foreground job to kill. */
  hasForegroundJob = true;
  /** The pager in the foreground (the test plays one), and how often it was asked to quit. */
  pager: string | undefined;
  pagerQuits = 0;
  /** The test puts the pane on another host (its shell reached with ssh). */
  remote: RemoteShellInfo | undefined;
  private readonly list: Block[] = [];
  private readonly outputs = new Map<string, BlockOutput>();
  private readonly watchers = new Set<PaneWatcher>();

  constructor(readonly id = 1) {}

  /** Watchers still subscribed (a runner that finished has let go). */
  get watching(): number {
    return this.watchers.size;
  }

  blocks(): Block[] {
    return [...this.list];
  }

  outputOf(blockId: string): Promise<BlockOutput | undefined> {
    return Promise.resolve(this.outputs.get(blockId));
  }

  /** The environment each typed command was given, in order. */
  readonly typedEnv: (Readonly<Record<string, string>> | undefined)[] = [];

  /** Commands whose `beforeEnter` ran, in order (once their line was typed, right before Enter). */
  readonly beforeEnter: string[] = [];

  /** The line is typed, and the shell echoes it at once: Enter follows right away. */
  typeCommand(command: string, { env, beforeEnter }: TypeCommandOptions = {}): void {
    this.typed.push(command);
    this.typedEnv.push(env?.());
    if (beforeEnter) {
      beforeEnter();
      this.beforeEnter.push(command);
    }
  }

  interrupt(): void {
    this.interrupts++;
  }

  killForeground(): boolean {
    this.kills++;
    return this.hasForegroundJob;
  }

  foregroundPager(): string | undefined {
    return this.pager;
  }

  quitPager(): string | undefined {
    if (this.pager) this.pagerQuits++;
    return this.pager;
  }

  observe(watcher: PaneWatcher): Disposable {
    this.watchers.add(watcher);
    return toDisposable(() => this.watchers.delete(watcher));
  }

  /** Resolves once `count` commands have been typed in all (fails if the agent never gets there). */
  typedCount(count: number): Promise<void> {
    return untilTrue(() => this.typed.length >= count, `${count} command(s) typed`);
  }

  // ── The shell's side ─────────────────────────────────────────────────────────────────

  showPrompt(): void {
    this.state = 'PROMPT';
    for (const watcher of [...this.watchers]) watcher.promptShown?.();
  }

  startBlock(command = this.typed.at(-1) ?? ''): Block {
    const block: Block = {
      id: `p${this.id}b${this.list.length + 1}`,
      paneId: this.id,
      command,
      cwd: this.cwd,
      startedAt: 1_000,
      trusted: true,
      outputOffset: 0,
      usedAlternateScreen: false,
    };
    this.list.push(block);
    this.state = 'EXECUTING';
    for (const watcher of [...this.watchers]) watcher.blockStarted?.(block);
    return block;
  }

  print(): void {
    for (const watcher of [...this.watchers]) watcher.output?.();
  }

  enterAlternateScreen(): void {
    this.isAlternateScreen = true;
    for (const watcher of [...this.watchers]) watcher.alternateScreen?.();
  }

  finishBlock(exitCode: number | undefined, output = ''): Block {
    const block = this.list.at(-1);
    if (!block || block.endedAt !== undefined) throw new Error('no block is running');
    block.endedAt = 1_250;
    block.exitCode = exitCode;
    this.outputs.set(block.id, { text: output, truncated: false, lineCount: output === '' ? 0 : output.split('\n').length });
    this.state = 'IDLE';
    for (const watcher of [...this.watchers]) watcher.blockFinished?.({ ...block });
    return block;
  }

  /** The last typed command runs to its end: its block starts and finishes, and the next prompt shows. */
  complete(exitCode: number, output = ''): Block {
    this.startBlock();
    const block = this.finishBlock(exitCode, output);
    this.showPrompt();
    return block;
  }

  exit(): void {
    this.exited = true;
    for (const watcher of [...this.watchers]) watcher.exited?.();
  }
}
