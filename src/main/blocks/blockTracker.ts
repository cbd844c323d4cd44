import { blockId, isPagerQuit, type Block, type TerminalState } from '../../shared/blocks';
import { Emitter } from '../../shared/events';
import type { Mark } from '../osc/marks';

/** A block began. `outputStartMark`: for a heuristic block, the mirror mark where its output begins. */
export interface BlockStart {
  block: Block;
  outputStartMark?: number;
}

/** How many finished blocks a pane remembers (their text lives in the mirror's scrollback). */
export const MAX_BLOCKS_PER_PANE = 5_000;

/**
 * Turns the mark stream of one pane into blocks and terminal states.
 *
 * With our integration loaded, only marks carrying the pane's nonce move the state machine:
 * a program that prints `ESC ] 133 ; D` cannot end, start or fake a block. Without it, marks
 * from other integrations (fish 4, prompt frameworks, VS Code's) drive untrusted blocks.
 */
export class BlockTracker {
  private stateValue: TerminalState = 'IDLE';
  private cwdValue: string;
  /** The running block, and whether the user typed into a pager it ran (a 141 from it is a quit, not a failure). */
  private current: { block: Block; typedInPager: boolean } | undefined;
  private ordinal = 0;
  private pendingCommandLine: string | undefined;
  private confirmed = false;
  /** Our A marks carry the cwd: OSC 7 (which any program can print) is then ignored. */
  private cwdFromOurMarks = false;
  /** Number of the last prompt our integration announced (a repeat is a redraw). */
  private lastPrompt: string | undefined;
  private readonly finishedBlocks: Block[] = [];
  /** Marks without our nonce seen while our integration was on. */
  untrustedMarkCount = 0;
  /** Prompt/command marks of any origin (cwd reports excluded) that reached this tracker. */
  marksSeen = 0;
  private readonly emitters = {
    started: new Emitter<BlockStart>(),
    finished: new Emitter<Block>(),
    stateChanged: new Emitter<{ state: TerminalState; cwd: string }>(),
    promptShown: new Emitter<void>(),
    integrationConfirmed: new Emitter<void>(),
  };

  constructor(
    private readonly paneId: number,
    private readonly nonce: string,
    private integrationInjected: boolean,
    initialCwd: string,
  ) {
    this.cwdValue = initialCwd;
  }

  get onStarted() {
    return this.emitters.started.event;
  }

  get onFinished() {
    return this.emitters.finished.event;
  }

  get onStateChanged() {
    return this.emitters.stateChanged.event;
  }

  /** A prompt was drawn (each prompt-start mark, or the input-start of a prompt we missed). */
  get onPromptShown() {
    return this.emitters.promptShown.event;
  }

  /** Our first trusted mark arrived: integration is proven to work in this shell. */
  get onIntegrationConfirmed() {
    return this.emitters.integrationConfirmed.event;
  }

  get state(): TerminalState {
    return this.stateValue;
  }

  get cwd(): string {
    return this.cwdValue;
  }

  get running(): Block | undefined {
    return this.current?.block;
  }

  get integrationConfirmed(): boolean {
    return this.confirmed;
  }

  /** All blocks, oldest first, the running one last. */
  blocks(): Block[] {
    return this.current ? [...this.finishedBlocks, this.current.block] : [...this.finishedBlocks];
  }

  find(id: string): Block | undefined {
    if (this.current?.block.id === id) return this.current.block;
    return this.finishedBlocks.find((block) => block.id === id);
  }

  /** Our integration turned out not to load; accept foreign marks from now on. */
  disableIntegration(): void {
    this.integrationInjected = false;
  }

  markAlternateScreen(): void {
    if (this.current) this.current.block.usedAlternateScreen = true;
  }

  /** The user typed while a pager (or a full-screen program) of the running block had the keys. */
  markUserInPager(): void {
    if (this.current) this.current.typedInPager = true;
  }

  /** Whether the running block already has the user typing in its pager (one look at /proc per block is enough). */
  get userTypedInPager(): boolean {
    return this.current?.typedInPager === true;
  }

  /**
   * Feed one mark. `streamOffset` is the byte offset in the pane's output just past the mark.
   */
  handle(mark: Mark, streamOffset: number, now = Date.now(), heuristic?: { outputStartMark?: number }): void {
    // Environment reports are the pane's (PaneEnvironment), not the blocks'.
    if (mark.kind === 'environment') return;
    const ours = mark.nonce !== undefined && mark.nonce === this.nonce;
    if (mark.kind === 'cwd') {
      // While a command runs, a cwd report may come from the program, not the shell; once our
      // prompt marks carry the cwd themselves, bare reports are not needed at all.
      if (!this.cwdFromOurMarks && (!this.integrationInjected || this.stateValue !== 'EXECUTING')) this.setCwd(mark.path);
      return;
    }
    if (ours && !this.integrationInjected) {
      // Integration reported in late (a slow rc file): from now on only our marks count.
      this.integrationInjected = true;
    }
    if (!heuristic) this.marksSeen++;
    if (this.integrationInjected && !ours) {
      this.untrustedMarkCount++;
      return;
    }
    if (ours && !this.confirmed) {
      this.confirmed = true;
      this.emitters.integrationConfirmed.fire();
    }
    const trusted = ours;
    switch (mark.kind) {
      case 'prompt-start':
        this.finishCurrent(undefined, now, streamOffset);
        if (ours && mark.cwd) {
          this.cwdFromOurMarks = true;
          this.cwdValue = mark.cwd;
        }
        this.setState('PROMPT');
        if (!ours || mark.prompt === undefined || mark.prompt !== this.lastPrompt) this.emitters.promptShown.fire();
        if (ours) this.lastPrompt = mark.prompt;
        break;
      case 'input-start':
        if (this.stateValue !== 'PROMPT') {
          this.setState('PROMPT');
          this.emitters.promptShown.fire();
        }
        break;
      case 'command-line':
        this.pendingCommandLine = mark.commandLine;
        break;
      case 'command-start': {
        this.finishCurrent(undefined, now, streamOffset);
        // Our C carries the cwd the command starts in: exact even when the prompt's A was
        // not redrawn after a cd done by a line-editor widget.
        if (ours && mark.cwd) {
          this.cwdFromOurMarks = true;
          this.cwdValue = mark.cwd;
        }
        this.ordinal++;
        const block: Block = {
          id: blockId(this.paneId, this.ordinal),
          paneId: this.paneId,
          command: mark.commandLine ?? this.pendingCommandLine ?? '',
          cwd: this.cwdValue,
          startedAt: now,
          trusted,
          outputOffset: streamOffset,
          usedAlternateScreen: false,
        };
        this.current = { block, typedInPager: false };
        this.pendingCommandLine = undefined;
        this.setState('EXECUTING');
        this.emitters.started.fire({ block: { ...block }, outputStartMark: heuristic?.outputStartMark });
        break;
      }
      case 'command-end':
        if (this.current) {
          this.finishCurrent(mark.exitCode, now, streamOffset);
          this.setState('IDLE');
        }
        break;
    }
  }

  /**
   * Start a block from the prompt heuristics (no integration): command as read off the
   * screen; its output begins at mirror mark `outputStartMark`.
   */
  startHeuristicBlock(command: string, streamOffset: number, outputStartMark?: number, now = Date.now()): void {
    this.handleUntrusted({ kind: 'command-start', commandLine: command }, streamOffset, now, outputStartMark);
  }

  /** A prompt appeared again after a heuristic block: it is finished, exit code unknown. */
  finishHeuristicBlock(streamOffset: number, now = Date.now()): void {
    this.handleUntrusted({ kind: 'prompt-start' }, streamOffset, now);
  }

  private handleUntrusted(mark: Mark, streamOffset: number, now: number, outputStartMark?: number): void {
    if (this.integrationInjected) return;
    this.handle({ ...mark, nonce: undefined }, streamOffset, now, { outputStartMark });
  }

  /** The shell is gone: a block still running ended with it (`exit 3` ends with 3). */
  shellExited(exitCode: number | undefined, streamOffset: number, now = Date.now()): void {
    if (!this.current) return;
    this.finishCurrent(exitCode, now, streamOffset);
    this.setState('IDLE');
  }

  private finishCurrent(exitCode: number | undefined, now: number, streamOffset: number): void {
    if (!this.current) return;
    const { block, typedInPager } = this.current;
    block.endedAt = now;
    block.outputEndOffset = streamOffset;
    if (exitCode !== undefined) block.exitCode = exitCode;
    if (isPagerQuit(block.exitCode, typedInPager)) block.pagerQuit = true;
    this.current = undefined;
    this.finishedBlocks.push(block);
    if (this.finishedBlocks.length > MAX_BLOCKS_PER_PANE) this.finishedBlocks.shift();
    this.emitters.finished.fire({ ...block });
  }

  private setState(state: TerminalState): void {
    this.stateValue = state;
    this.emitters.stateChanged.fire({ state, cwd: this.cwdValue });
  }

  private setCwd(path: string): void {
    if (path === this.cwdValue) return;
    this.cwdValue = path;
    this.emitters.stateChanged.fire({ state: this.stateValue, cwd: path });
  }
}
