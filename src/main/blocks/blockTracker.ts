import { blockId, isPagerQuit, type Block, type TerminalState } from '../../shared/blocks';
import { Emitter } from '../../shared/events';
import type { Mark, RemoteShellInfo } from '../osc/marks';
import { newShellSession, nonceOwner, type ShellSession } from './shellSessions';

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
 *
 * Shells reached with `ssh` stack on the local one (pushSession), each with its own nonce:
 * the top shell's marks make blocks; a mark of a shell further down ends the ones above it
 * (the connection is over); a mark with any other nonce is only counted.
 */
export class BlockTracker {
  /** The local shell first, remote shells above it; never empty. */
  private readonly sessions: ShellSession[];
  private ordinal = 0;
  private confirmed = false;
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
    nonce: string,
    private integrationInjected: boolean,
    initialCwd: string,
  ) {
    this.sessions = [newShellSession(nonce, initialCwd)];
  }

  /** The shell whose marks make blocks now. */
  private get top(): ShellSession {
    return this.sessions[this.sessions.length - 1]!;
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
    return this.top.state;
  }

  get cwd(): string {
    return this.top.cwd;
  }

  /** The running block of the top shell (at a remote prompt: none, though `ssh` runs below). */
  get running(): Block | undefined {
    return this.top.current?.block;
  }

  /** The top shell's nonce: what the ssh wrapper's start mark must carry. */
  get topNonce(): string {
    return this.top.nonce;
  }

  /** The remote shell the pane is on now, or undefined on the local shell. */
  get remote(): RemoteShellInfo | undefined {
    return this.top.remote;
  }

  /** How many shells are stacked (1: the local shell alone). */
  get depth(): number {
    return this.sessions.length;
  }

  /**
   * A remote shell with its own nonce starts on top (the engine answered its ssh request).
   * The shell below keeps its running block (`ssh`) until a mark of its own ends it.
   */
  pushSession(nonce: string, remote: RemoteShellInfo): void {
    this.sessions.push(newShellSession(nonce, '', remote));
    this.setState('IDLE');
  }

  get integrationConfirmed(): boolean {
    return this.confirmed;
  }

  /** The top (remote) shell turned out to have no integration: the shell below is on top again. */
  dropTopSession(streamOffset: number, now = Date.now()): void {
    if (this.sessions.length < 2) return;
    this.finishCurrent(undefined, now, streamOffset);
    this.sessions.pop();
    this.setState(this.top.state);
  }

  /** All blocks, oldest first, then the running ones (the local `ssh`, then the remote command). */
  blocks(): Block[] {
    return [...this.finishedBlocks, ...this.runningBlocks()];
  }

  find(id: string): Block | undefined {
    return this.runningBlocks().find((block) => block.id === id) ?? this.finishedBlocks.find((block) => block.id === id);
  }

  private runningBlocks(): Block[] {
    return this.sessions.flatMap((session) => (session.current ? [session.current.block] : []));
  }

  /** Our integration turned out not to load; accept foreign marks from now on. */
  disableIntegration(): void {
    this.integrationInjected = false;
  }

  markAlternateScreen(): void {
    if (this.top.current) this.top.current.block.usedAlternateScreen = true;
  }

  /** The user typed while a pager (or a full-screen program) of the running block had the keys. */
  markUserInPager(): void {
    if (this.top.current) this.top.current.typedInPager = true;
  }

  /** Whether the running block already has the user typing in its pager (one look at /proc per block is enough). */
  get userTypedInPager(): boolean {
    return this.top.current?.typedInPager === true;
  }

  /**
   * Feed one mark. `streamOffset` is the byte offset in the pane's output just past the mark.
   */
  handle(mark: Mark, streamOffset: number, now = Date.now(), heuristic?: { outputStartMark?: number }): void {
    // Environment reports are the pane's (PaneEnvironment), not the blocks'.
    if (mark.kind === 'environment' || mark.kind.startsWith('ssh-')) return;
    const owner = nonceOwner(this.sessions, mark.nonce);
    if (mark.kind === 'cwd') {
      // While a command runs, a cwd report may come from the program, not the shell; once our
      // prompt marks carry the cwd themselves, bare reports are not needed at all.
      const top = this.top;
      const renamed = top.remote && mark.host && mark.host !== top.remote.host && top.state !== 'EXECUTING';
      if (renamed) top.remote = { ...top.remote!, host: mark.host! };
      const cwdBefore = top.cwd;
      if (!top.cwdFromOurMarks && (!this.integrationInjected || top.state !== 'EXECUTING')) this.setCwd(mark.path);
      // The pane's state names the host: a new name must reach it even when the directory stayed.
      if (renamed && top.cwd === cwdBefore) this.emitters.stateChanged.fire({ state: top.state, cwd: top.cwd });
      return;
    }
    // A mark of a shell further down: the shells above it are gone (the remote's ssh ended).
    if (owner.kind === 'below') this.popSessionsAbove(owner.index, now, streamOffset);
    const ours = owner.kind !== 'unknown';
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
      case 'prompt-start': {
        this.finishCurrent(undefined, now, streamOffset);
        const top = this.top;
        if (ours && mark.cwd) {
          top.cwdFromOurMarks = true;
          top.cwd = mark.cwd;
        }
        this.setState('PROMPT');
        if (!ours || mark.prompt === undefined || mark.prompt !== top.lastPrompt) this.emitters.promptShown.fire();
        if (ours) top.lastPrompt = mark.prompt;
        break;
      }
      case 'input-start':
        if (this.top.state !== 'PROMPT') {
          this.setState('PROMPT');
          this.emitters.promptShown.fire();
        }
        break;
      case 'command-line':
        this.top.pendingCommandLine = mark.commandLine;
        break;
      case 'command-start': {
        this.finishCurrent(undefined, now, streamOffset);
        const top = this.top;
        // Our C carries the cwd the command starts in: exact even when the prompt's A was
        // not redrawn after a cd done by a line-editor widget.
        if (ours && mark.cwd) {
          top.cwdFromOurMarks = true;
          top.cwd = mark.cwd;
        }
        this.ordinal++;
        const block: Block = {
          id: blockId(this.paneId, this.ordinal),
          paneId: this.paneId,
          command: mark.commandLine ?? top.pendingCommandLine ?? '',
          cwd: top.cwd,
          ...(top.remote ? { host: top.remote.host, user: top.remote.user } : {}),
          startedAt: now,
          trusted,
          outputOffset: streamOffset,
          usedAlternateScreen: false,
        };
        top.current = { block, typedInPager: false };
        top.pendingCommandLine = undefined;
        this.setState('EXECUTING');
        this.emitters.started.fire({ block: { ...block }, outputStartMark: heuristic?.outputStartMark });
        break;
      }
      case 'command-end':
        if (this.top.current) {
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
    this.popSessionsAbove(0, now, streamOffset);
    if (!this.top.current) return;
    this.finishCurrent(exitCode, now, streamOffset);
    this.setState('IDLE');
  }

  /** The shells above `index` are gone: their running blocks end without a status. */
  private popSessionsAbove(index: number, now: number, streamOffset: number): void {
    if (this.sessions.length - 1 <= index) return;
    while (this.sessions.length - 1 > index) {
      this.finishCurrent(undefined, now, streamOffset);
      this.sessions.pop();
    }
    // The pane is on another shell (another host, cwd and state) even if the mark that ended them changes nothing more.
    this.emitters.stateChanged.fire({ state: this.top.state, cwd: this.top.cwd });
  }

  private finishCurrent(exitCode: number | undefined, now: number, streamOffset: number): void {
    const top = this.top;
    if (!top.current) return;
    const { block, typedInPager } = top.current;
    block.endedAt = now;
    block.outputEndOffset = streamOffset;
    if (exitCode !== undefined) block.exitCode = exitCode;
    if (isPagerQuit(block.exitCode, typedInPager)) block.pagerQuit = true;
    top.current = undefined;
    this.finishedBlocks.push(block);
    if (this.finishedBlocks.length > MAX_BLOCKS_PER_PANE) this.finishedBlocks.shift();
    this.emitters.finished.fire({ ...block });
  }

  private setState(state: TerminalState): void {
    this.top.state = state;
    this.emitters.stateChanged.fire({ state, cwd: this.top.cwd });
  }

  private setCwd(path: string): void {
    const top = this.top;
    if (path === top.cwd) return;
    top.cwd = path;
    this.emitters.stateChanged.fire({ state: top.state, cwd: path });
  }
}
