import type { InputPriority } from './inputPriority';

/** The part of xterm the queue writes to. Write callbacks run in order, once their data is parsed. */
export interface QueueTerminal {
  write(data: string | Uint8Array, callback?: () => void): void;
}

/** Whether this pane's output may go to xterm now (keystroke first, one InputPriority per page). */
export type OutputGate = Pick<InputPriority, 'writeAllowance' | 'whenWritable' | 'outputWritten'>;

type QueueItem =
  /** Engine output: counted in the stream, acknowledged once parsed. */
  | { kind: 'output'; bytes: Uint8Array }
  /** Text that is not engine output (a snapshot, Tandem's own lines): written in turn, never acknowledged. */
  | { kind: 'text'; text: string }
  /** Something that happens at this point of the stream (a block edge, a pane event). */
  | { kind: 'event'; apply: () => void };

/**
 * One pane's stream on its way into xterm, in the order it arrived: output, Tandem's own
 * text, and events that sit between the bytes (the engine sends each pane event right after
 * the output that precedes it). An event is applied once xterm has parsed everything queued
 * before it, so the cursor is exactly at the event's place in the stream and nothing shows
 * an event before the output it describes.
 *
 * Output goes to xterm at once when it is idle. While xterm is still parsing an earlier
 * write, what arrives waits and then goes in as one write: under a flood xterm gets fewer,
 * bigger writes (measurably faster), and a keystroke's echo is never held back. Another
 * pane being typed in may hold this one's output or let it through in slices (InputPriority).
 * Each write is acknowledged to the engine from xterm's write callback.
 */
export class PaneOutputQueue {
  private items: QueueItem[] = [];
  /** A write is in xterm, or output waits for InputPriority to let it through. */
  private busy = false;
  private disposed = false;

  constructor(
    private readonly terminal: QueueTerminal,
    private readonly paneId: () => number,
    private readonly sendAck: (paneId: number, byteCount: number) => void,
    private readonly priority: OutputGate,
  ) {}

  output(bytes: Uint8Array): void {
    this.push({ kind: 'output', bytes });
  }

  text(text: string): void {
    if (text) this.push({ kind: 'text', text });
  }

  /** Runs `apply` once everything queued before it is parsed (at once if nothing is). */
  event(apply: () => void): void {
    this.push({ kind: 'event', apply });
  }

  /** Forgets the output and events still waiting (the pane's shell was replaced); text stays. */
  dropStream(): void {
    this.items = this.items.filter((item) => item.kind === 'text');
  }

  dispose(): void {
    this.disposed = true;
    this.items = [];
  }

  private push(item: QueueItem): void {
    if (this.disposed) return;
    this.items.push(item);
    this.pump();
  }

  private pump(): void {
    while (!this.busy && !this.disposed) {
      const head = this.items[0];
      if (!head) return;
      if (head.kind === 'event') {
        this.items.shift();
        applySafely(head.apply);
      } else if (head.kind === 'text') {
        this.items.shift();
        this.busy = true;
        this.terminal.write(head.text, () => this.written());
      } else {
        this.writeOutput();
      }
    }
  }

  private writeOutput(): void {
    const paneId = this.paneId();
    const allowance = this.priority.writeAllowance(paneId);
    this.busy = true;
    if (allowance <= 0) {
      // Another pane is being typed in: its echo goes first.
      this.priority.whenWritable(() => this.written());
      return;
    }
    let bytes = this.takeOutputRun();
    if (bytes.byteLength > allowance) {
      // A slice now, the rest later (xterm parses escape sequences split across writes).
      this.items.unshift({ kind: 'output', bytes: bytes.subarray(allowance) });
      bytes = bytes.subarray(0, allowance);
    }
    const byteCount = bytes.byteLength;
    this.terminal.write(bytes, () => {
      if (!this.disposed) this.sendAck(paneId, byteCount);
      this.priority.outputWritten(paneId, byteCount);
      this.written();
    });
  }

  /** The output at the head of the queue up to the next text or event, as one chunk. */
  private takeOutputRun(): Uint8Array {
    let count = 0;
    while (this.items[count]?.kind === 'output') count++;
    const run = this.items.splice(0, count).map((item) => (item as { bytes: Uint8Array }).bytes);
    return run.length === 1 ? run[0]! : concatBytes(run);
  }

  private written(): void {
    this.busy = false;
    this.pump();
  }
}

function applySafely(apply: () => void): void {
  try {
    apply();
  } catch (error) {
    // One bad event must not stop the pane's output.
    console.error('[tandem] a pane event failed', error);
  }
}

function concatBytes(chunks: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined;
}
