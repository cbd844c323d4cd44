import type { BlockTracker } from './blockTracker';
import type { PaneMirror } from './mirror/paneMirror';

/** `user@host:~/src$ make test` → prompt `user@host:~/src$`, command `make test`. */
const PROMPT_WITH_COMMAND = /^.*?[$#%>❯»λ] (.*\S)\s*$/u;
const BARE_PROMPT = /[$#%>❯»λ]\s*$/u;
const QUIET_MS = 150;
const ECHO_WAIT_MS = 40;

/**
 * Blocks for shells without integration: Enter on a line that looks like a prompt starts
 * a block with the text after the prompt; the next bare prompt after output settles ends
 * it. Exit codes are unknown and blocks are untrusted. Stands down as soon as the shell
 * sends real marks.
 */
export class PromptHeuristics {
  private quietTimer: NodeJS.Timeout | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly mirror: PaneMirror,
    private readonly tracker: BlockTracker,
    private readonly streamOffset: () => number,
  ) {}

  beforeInput(data: Uint8Array | string): void {
    if (this.tracker.marksSeen > 0 || this.tracker.running || this.mirror.isAlternateScreen) return;
    const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
    if (!text.includes('\r')) return;
    // The shell echoes what was typed before it acts on Enter, but that echo (of a paste, or
    // of the last keys of a fast typist) may still be on its way: read the line a moment later.
    const offset = this.streamOffset();
    const promptMark = this.mirror.markCursorLine();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.mirror.promptLine(promptMark).then((line) => {
        if (!line) return;
        const match = PROMPT_WITH_COMMAND.exec(line.text);
        if (!match?.[1] || this.tracker.marksSeen > 0 || this.tracker.running) {
          this.mirror.disposeMark(line.startMark);
          return;
        }
        this.tracker.startHeuristicBlock(match[1], offset, line.startMark);
        // The command may already be done and its prompt back: check without waiting for more output.
        this.afterOutput();
      });
    }, ECHO_WAIT_MS);
    this.timers.add(timer);
  }

  afterOutput(): void {
    if (!this.tracker.running || this.tracker.marksSeen > 0) return;
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      this.quietTimer = undefined;
      void this.mirror.cursorLine().then(({ text, alternateScreen }) => {
        if (!this.tracker.running || alternateScreen) return;
        if (BARE_PROMPT.test(text.trimEnd())) this.tracker.finishHeuristicBlock(this.streamOffset());
      });
    }, QUIET_MS);
    this.quietTimer.unref();
  }

  dispose(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    for (const timer of this.timers) clearTimeout(timer);
  }
}
