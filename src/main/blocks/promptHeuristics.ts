import type { BlockTracker } from './blockTracker';
import type { TerminalMirror } from './terminalMirror';

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
  /** While a heuristic block is being started: the buffer row its output begins on. */
  outputStartRow: number | undefined;

  constructor(
    private readonly mirror: TerminalMirror,
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
    const promptLine = this.mirror.markCursorLine();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.mirror.afterPendingWrites(() => {
        const row = promptLine && !promptLine.marker.isDisposed ? promptLine.marker.line : undefined;
        promptLine?.marker.dispose();
        if (row === undefined || this.tracker.marksSeen > 0 || this.tracker.running) return;
        const line = this.mirror.logicalLineAt(row);
        const match = PROMPT_WITH_COMMAND.exec(line.text);
        if (!match?.[1]) return;
        this.outputStartRow = line.lastRow + 1;
        this.tracker.startHeuristicBlock(match[1], offset);
        this.outputStartRow = undefined;
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
    for (const timer of this.timers) clearTimeout(timer);
  }
}
