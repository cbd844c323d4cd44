import type { BlockTracker } from './blockTracker';
import type { TerminalMirror } from './terminalMirror';

/** `user@host:~/src$ make test` → prompt `user@host:~/src$`, command `make test`. */
const PROMPT_WITH_COMMAND = /^.*?[$#%>❯»λ] (.*\S)\s*$/u;
const BARE_PROMPT = /[$#%>❯»λ]\s*$/u;
const QUIET_MS = 150;

/**
 * Blocks for shells without integration: Enter on a line that looks like a prompt starts
 * a block with the text after the prompt; the next bare prompt after output settles ends
 * it. Exit codes are unknown and blocks are untrusted. Stands down as soon as the shell
 * sends real marks.
 */
export class PromptHeuristics {
  private quietTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly mirror: TerminalMirror,
    private readonly tracker: BlockTracker,
    private readonly streamOffset: () => number,
  ) {}

  beforeInput(data: Uint8Array | string): void {
    if (this.tracker.marksSeen > 0 || this.tracker.running || this.mirror.isAlternateScreen) return;
    const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
    if (!text.includes('\r')) return;
    const match = PROMPT_WITH_COMMAND.exec(this.mirror.cursorLineText());
    if (match?.[1]) this.tracker.startHeuristicBlock(match[1], this.streamOffset());
  }

  afterOutput(): void {
    if (!this.tracker.running || this.tracker.marksSeen > 0) return;
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      this.quietTimer = undefined;
      this.mirror.afterPendingWrites(() => {
        if (!this.tracker.running || this.mirror.isAlternateScreen) return;
        if (BARE_PROMPT.test(this.mirror.cursorLineText().trimEnd())) {
          this.tracker.finishHeuristicBlock(this.streamOffset());
        }
      });
    }, QUIET_MS);
    this.quietTimer.unref();
  }

  dispose(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
  }
}
