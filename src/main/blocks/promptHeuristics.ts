import type { BlockTracker } from './blockTracker';
import type { PaneMirror } from './mirror/paneMirror';

/** `user@host:~/src$ make test` → prompt `user@host:~/src$`, command `make test`. */
const PROMPT_WITH_COMMAND = /^.*?[$#%>❯»λ] (.*\S)\s*$/u;
const BARE_PROMPT = /[$#%>❯»λ]\s*$/u;
const QUIET_MS = 150;
/** How long Enter's echo may take before the line is read anyway (a shell that echoes nothing). */
const ECHO_LIMIT_MS = 2_000;
const NEWLINE = 0x0a;

/** A line that ends like a shell prompt (`user@host:~$ `, `root@db1:/# `, `> `): nothing typed after it yet. */
export function looksLikeBarePrompt(line: string): boolean {
  return BARE_PROMPT.test(line.trimEnd());
}

/**
 * Blocks for shells without integration: Enter on a line that looks like a prompt starts
 * a block with the text after the prompt; the next bare prompt after output settles ends
 * it. Exit codes are unknown and blocks are untrusted. Stands down as soon as the shell
 * sends real marks.
 */
export class PromptHeuristics {
  private quietTimer: NodeJS.Timeout | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Reads waiting for the echo of an Enter (the newline the shell prints when it takes the line). */
  private readonly waitingForEcho = new Set<() => void>();

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
    // of the last keys of a fast typist on a busy machine) may still be on its way. Enter's
    // own echo, a newline, comes after all of it: read the line once that has arrived.
    const offset = this.streamOffset();
    const promptMark = this.mirror.markCursorLine();
    const read = () => {
      clearTimeout(timer);
      this.timers.delete(timer);
      this.waitingForEcho.delete(read);
      void this.mirror.promptLine(promptMark).then((line) => {
        if (!line) return;
        const match = PROMPT_WITH_COMMAND.exec(line.text);
        if (!match?.[1] || this.tracker.marksSeen > 0 || this.tracker.running) {
          this.mirror.disposeMark(line.startMark);
          return;
        }
        this.tracker.startHeuristicBlock(match[1], offset, line.startMark);
        // The command may already be done and its prompt back: check without waiting for more output.
        this.checkForPrompt();
      });
    };
    const timer = setTimeout(read, ECHO_LIMIT_MS);
    this.timers.add(timer);
    this.waitingForEcho.add(read);
  }

  /** Output the stream has just written to the mirror. */
  afterOutput(chunk: Uint8Array): void {
    if (this.waitingForEcho.size > 0 && chunk.includes(NEWLINE)) for (const read of [...this.waitingForEcho]) read();
    this.checkForPrompt();
  }

  private checkForPrompt(): void {
    if (!this.tracker.running || this.tracker.marksSeen > 0) return;
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      this.quietTimer = undefined;
      void this.mirror.cursorLine().then(({ text, alternateScreen }) => {
        if (!this.tracker.running || alternateScreen) return;
        if (looksLikeBarePrompt(text)) this.tracker.finishHeuristicBlock(this.streamOffset());
      });
    }, QUIET_MS);
    this.quietTimer.unref();
  }

  dispose(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    for (const timer of this.timers) clearTimeout(timer);
    this.waitingForEcho.clear();
  }
}
