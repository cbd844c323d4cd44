import type { Block } from '../../../shared/blocks';
import { Emitter, type Disposable } from '../../../shared/events';
import type { PaneWatcher } from '../../panes/paneWatcher';
import { normalizeCommand } from '../../safety/policy/commandPatterns';

/** A block the user ran in one of their panes, finished. */
export interface UserBlock {
  block: Block;
  /** The block's output as the pane's mirror read it (not scrubbed yet). */
  output(): Promise<string>;
}

interface WatchedPane {
  subscription: Disposable;
  /** A command Tandem typed, until its block starts. */
  typed: string | undefined;
  /** The running block Tandem typed. */
  typedBlockId: string | undefined;
}

/**
 * The finished blocks of the user's panes that the user ran: blocks Tandem typed (plan steps,
 * `!auto`, a watcher's own steps, `! cmd` from the panel) are left out, so an agent's
 * failing step never fires a block watcher and watchers cannot fire each other in a loop.
 */
export class UserBlocks implements Disposable {
  private readonly panes = new Map<number, WatchedPane>();
  private readonly finished = new Emitter<UserBlock>();

  get onFinished() {
    return this.finished.event;
  }

  watch(paneId: number, observe: (watcher: PaneWatcher) => Disposable, outputOf: (blockId: string) => Promise<{ text: string } | undefined>): void {
    const pane: WatchedPane = { subscription: { dispose: () => undefined }, typed: undefined, typedBlockId: undefined };
    this.panes.set(paneId, pane);
    pane.subscription = observe({
      commandTyped: (command) => (pane.typed = command),
      blockStarted: (block) => {
        pane.typedBlockId = pane.typed !== undefined && normalizeCommand(pane.typed) === normalizeCommand(block.command) ? block.id : undefined;
        pane.typed = undefined;
      },
      blockFinished: (block) => {
        const byTandem = block.id === pane.typedBlockId;
        pane.typedBlockId = undefined;
        if (byTandem) return;
        this.finished.fire({ block, output: async () => (await outputOf(block.id))?.text ?? '' });
      },
    });
  }

  unwatch(paneId: number): void {
    this.panes.get(paneId)?.subscription.dispose();
    this.panes.delete(paneId);
  }

  dispose(): void {
    for (const paneId of [...this.panes.keys()]) this.unwatch(paneId);
    this.finished.dispose();
  }
}
