import { scrubSecrets } from '../safety/secretScrubber';
import { PlainText } from './plainText';

/** How often a running step's output goes out, at most (the stream is rate-limited to this). */
export const OUTPUT_FLUSH_MS = 100;
/** Most of a step's output one flush carries; beyond it the middle is left out and counted. */
export const OUTPUT_MAX_PER_FLUSH = 64 * 1024;
const KEEP_HEAD = 16 * 1024;

interface BlockBuffer {
  plain: PlainText;
  text: string;
  omitted: number;
  finished: boolean;
}

/**
 * What the agent's own pane prints while a step's block runs, as plain scrubbed text in
 * rate-limited chunks: per block, flushed every OUTPUT_FLUSH_MS in whole lines (a secret is
 * never split between two chunks), at most OUTPUT_MAX_PER_FLUSH each; output arriving faster
 * loses its middle, which is counted. Memory stays bounded however much a step prints.
 * The bytes come straight from the pane's stream (a PaneWatcher), so a block's output is all
 * here before its end is reported to anyone. Output waits until `owner` knows the block's
 * step (the view names it a moment later).
 */
export class StepOutputStream {
  private readonly blocks = new Map<string, BlockBuffer>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly owner: (blockId: string) => boolean,
    private readonly emit: (blockId: string, text: string) => void,
    /** After every flush interval: whoever waits for a block's end looks again. */
    private readonly tick: () => void,
    /** The pane's width: a longer line wraps, as on its screen. */
    private readonly cols = Number.POSITIVE_INFINITY,
  ) {
    this.timer = setInterval(() => {
      this.flush();
      this.tick();
    }, OUTPUT_FLUSH_MS);
    this.timer.unref?.();
  }

  blockStarted(blockId: string): void {
    this.blocks.set(blockId, { plain: new PlainText(this.cols), text: '', omitted: 0, finished: false });
  }

  output(blockId: string, bytes: Uint8Array): void {
    const buffer = this.blocks.get(blockId);
    if (!buffer) return;
    buffer.text += buffer.plain.push(bytes);
    if (buffer.text.length > OUTPUT_MAX_PER_FLUSH) {
      const dropped = buffer.text.length - OUTPUT_MAX_PER_FLUSH;
      const head = buffer.text.slice(0, KEEP_HEAD);
      buffer.text = `${head}\n… [output left out: it came faster than the stream carries] …\n${buffer.text.slice(KEEP_HEAD + dropped)}`;
      buffer.omitted += Buffer.byteLength(buffer.text.slice(KEEP_HEAD, KEEP_HEAD + dropped));
    }
  }

  blockFinished(blockId: string): void {
    const buffer = this.blocks.get(blockId);
    if (!buffer) return;
    buffer.text += buffer.plain.end();
    buffer.finished = true;
  }

  /** Whether the block's output has all gone out (its end seen, nothing left to send). */
  drained(blockId: string): boolean {
    const buffer = this.blocks.get(blockId);
    return buffer === undefined || (buffer.finished && buffer.text === '');
  }

  /** Bytes of a block's output left out of the stream; the block is forgotten. */
  take(blockId: string): number {
    const omitted = this.blocks.get(blockId)?.omitted ?? 0;
    this.blocks.delete(blockId);
    return omitted;
  }

  flush(): void {
    for (const blockId of this.blocks.keys()) if (this.owner(blockId)) this.flushBlock(blockId);
  }

  /** Sends what the block printed so far (all of it once it ended; else whole lines). */
  flushBlock(blockId: string): void {
    const buffer = this.blocks.get(blockId);
    if (!buffer?.text) return;
    const cut = buffer.finished ? buffer.text.length : buffer.text.lastIndexOf('\n') + 1;
    if (cut <= 0) return;
    const text = buffer.text.slice(0, cut);
    buffer.text = buffer.text.slice(cut);
    this.emit(blockId, scrubSecrets(text).text);
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}
