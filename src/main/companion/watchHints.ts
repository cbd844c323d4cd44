import type { Block } from '../../shared/blocks';
import { HINT_TEXTS, type CompanionHint, type HintPattern } from '../../shared/companion';
import type { Disposable } from '../../shared/events';
import type { Settings } from '../../shared/settings';
import type { PaneWatcher } from '../panes/paneWatcher';
import { ExpectedFailures } from './expectedFailure';
import { HintDetector, normalizeCommand, type FailureJudge } from './hintDetector';

export interface WatchHintsHost {
  settings(): Settings['companion'];
  /** A pane's hint appeared (a hint) or ended (null). Nothing leaves the machine: this goes to the window. */
  show(paneId: number, hint: CompanionHint | null): void;
}

interface WatchedPane {
  detector: HintDetector;
  subscription: Disposable;
  hint: CompanionHint | undefined;
  /** The last counted failure, while a long pause may still hint about it. */
  pausedOn: string | undefined;
  pauseTimer: NodeJS.Timeout | undefined;
  /** A command Tandem typed, until its block starts. */
  typed: string | undefined;
  /** The running block Tandem typed. */
  typedBlockId: string | undefined;
}

/**
 * Watch mode for every pane: hands finished blocks to each pane's detector and shows what it
 * finds. The long-pause timer lives here, not in the window, so one place decides an
 * episode's one hint; the window only says which pane has focus (the engine sees every key).
 */
export class WatchHints implements Disposable {
  private readonly panes = new Map<number, WatchedPane>();
  private focusedPaneId: number | null = null;
  /** The pane an `!auto` run works in: no hints there meanwhile (its failures are the agent's to handle). */
  private quietPaneId: number | undefined;

  /** `judge`: by default the bash grammar, loaded in the background (until then every failure counts). */
  constructor(
    private readonly host: WatchHintsHost,
    private readonly judge: FailureJudge = new ExpectedFailures(),
  ) {}

  watch(paneId: number, observe: (watcher: PaneWatcher) => Disposable): void {
    const pane: WatchedPane = {
      detector: new HintDetector(this.judge),
      subscription: { dispose: () => undefined },
      hint: undefined,
      pausedOn: undefined,
      pauseTimer: undefined,
      typed: undefined,
      typedBlockId: undefined,
    };
    this.panes.set(paneId, pane);
    pane.subscription = observe({
      blockStarted: (block) => {
        this.stopPause(pane, true);
        pane.typedBlockId = pane.typed !== undefined && normalizeCommand(pane.typed) === normalizeCommand(block.command) ? block.id : undefined;
        pane.typed = undefined;
      },
      commandTyped: (command) => (pane.typed = command),
      blockFinished: (block) => this.finished(paneId, pane, block),
      exited: () => this.stopPause(pane, true),
    });
  }

  unwatch(paneId: number): void {
    const pane = this.panes.get(paneId);
    if (!pane) return;
    this.stopPause(pane, true);
    pane.subscription.dispose();
    this.panes.delete(paneId);
  }

  /** The user typed in a pane: a pause starts over. */
  input(paneId: number): void {
    const pane = this.panes.get(paneId);
    if (pane?.pausedOn !== undefined) this.startPause(paneId, pane);
  }

  focus(paneId: number | null): void {
    if (paneId === this.focusedPaneId) return;
    this.focusedPaneId = paneId;
    for (const [id, pane] of this.panes) {
      this.stopPause(pane, false);
      if (id === paneId && pane.pausedOn !== undefined) this.startPause(id, pane);
    }
  }

  /** An auto run started in a pane (its hint goes, and none shows while it runs) or ended (undefined). */
  quietIn(paneId: number | undefined): void {
    this.quietPaneId = paneId;
    const pane = paneId !== undefined ? this.panes.get(paneId) : undefined;
    if (pane && paneId !== undefined) {
      this.stopPause(pane, true);
      this.clear(paneId, pane);
    }
  }

  /**
   * The user works on the pane's output with the AI: asks from its prompt (`??`, `# `), or in
   * the panel types in the input, attaches a block, sends a message. They are not stuck, and a
   * hint did its job: no long-pause hint comes for this failure, and a hint showing goes.
   */
  asked(paneId: number): void {
    const pane = this.panes.get(paneId);
    if (!pane) return;
    this.stopPause(pane, true);
    this.clear(paneId, pane);
  }

  /** Settings changed: switched off, every hint goes; new thresholds apply from the next block. */
  settingsChanged(): void {
    if (this.host.settings().hints) return;
    for (const [paneId, pane] of this.panes) {
      this.stopPause(pane, true);
      this.clear(paneId, pane);
    }
  }

  /** The hints showing now. */
  current(): CompanionHint[] {
    return [...this.panes.values()].flatMap((pane) => (pane.hint ? [pane.hint] : []));
  }

  dispose(): void {
    for (const paneId of [...this.panes.keys()]) this.unwatch(paneId);
  }

  private finished(paneId: number, pane: WatchedPane, block: Block): void {
    const settings = this.host.settings();
    // The agent's failures are not the user being stuck (the plan stops and asks); its success still ends the episode.
    const byTandem = block.id === pane.typedBlockId;
    pane.typedBlockId = undefined;
    // A pager the user quit (exit 141) is neither a failure nor a success: not counted.
    const outcome = (byTandem && block.exitCode !== 0) || block.pagerQuit ? { command: block.command } : block;
    const step = pane.detector.finished(outcome, { errorCascade: settings.error_cascade, retryLoop: settings.retry_loop });
    if (step.episodeEnded) this.clear(paneId, pane);
    this.stopPause(pane, true);
    if (!settings.hints || paneId === this.quietPaneId) return;
    if (step.hint) this.show(paneId, pane, step.hint, block.id);
    else if (step.pauseCanHint) {
      pane.pausedOn = block.id;
      this.startPause(paneId, pane);
    }
  }

  private startPause(paneId: number, pane: WatchedPane): void {
    this.stopPause(pane, false);
    const seconds = this.host.settings().long_pause_seconds;
    if (seconds <= 0 || paneId !== this.focusedPaneId || !this.host.settings().hints) return;
    pane.pauseTimer = setTimeout(() => {
      pane.pauseTimer = undefined;
      const blockId = pane.pausedOn;
      pane.pausedOn = undefined;
      const pattern = pane.detector.paused();
      if (pattern && blockId) this.show(paneId, pane, pattern, blockId);
    }, seconds * 1000);
    pane.pauseTimer.unref?.();
  }

  /** `forget`: the failure is no longer the last thing that happened (a command started, the shell ended). */
  private stopPause(pane: WatchedPane, forget: boolean): void {
    if (pane.pauseTimer) clearTimeout(pane.pauseTimer);
    pane.pauseTimer = undefined;
    if (forget) pane.pausedOn = undefined;
  }

  private show(paneId: number, pane: WatchedPane, pattern: HintPattern, blockId: string): void {
    pane.hint = { paneId, pattern, blockId, text: HINT_TEXTS[pattern] };
    this.host.show(paneId, pane.hint);
  }

  private clear(paneId: number, pane: WatchedPane): void {
    if (!pane.hint) return;
    pane.hint = undefined;
    this.host.show(paneId, null);
  }
}
