import type { Block } from '../../shared/blocks';
import type { BlockTracker } from './blockTracker';
import type { PaneMirror } from './mirror/paneMirror';
import { looksLikeBarePrompt } from './promptHeuristics';

const QUIET_MS = 150;

/**
 * With integration on: a shell prompt inside a running trusted block's output — a shell
 * without our integration (`sudo -i`, a ForceCommand's shell) is reading commands there.
 * After output settles, the line the cursor is on is read off the mirror; when it looks
 * like a bare prompt (`root@db1:~# `), `found` hears the block, once per block. It never
 * makes or ends a block: those come only from marks with the nonce.
 */
export class ShellPromptWatch {
  private quietTimer: NodeJS.Timeout | undefined;
  private readonly reported = new Set<string>();

  constructor(
    private readonly mirror: PaneMirror,
    private readonly tracker: BlockTracker,
    /** Whether this block's prompt is worth a look (a shell-starting command, a wrapped ssh). */
    private readonly watched: (block: Block) => boolean,
    private readonly found: (block: Block) => void,
  ) {
    tracker.onFinished((block) => this.reported.delete(block.id));
  }

  afterOutput(): void {
    const block = this.tracker.running;
    if (!block?.trusted || this.reported.has(block.id) || !this.watched(block)) return;
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      this.quietTimer = undefined;
      void this.mirror.cursorLine().then(({ text, alternateScreen }) => {
        const now = this.tracker.running;
        if (alternateScreen || now?.id !== block.id || this.reported.has(block.id) || !looksLikeBarePrompt(text)) return;
        this.reported.add(block.id);
        this.found(now);
      });
    }, QUIET_MS);
    this.quietTimer.unref();
  }

  dispose(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
  }
}
