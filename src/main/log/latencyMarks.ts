import { openSync, readSync, writeFileSync } from 'node:fs';

/**
 * Where a keystroke or a plan step is on its way through the engine:
 * - `input`: an Input frame from the client; `input-written`: its bytes written to the pty
 * - `step-decision`: an `agent.step` request arrived (before it is parsed);
 *   `step-line-written`: the step's line written to the pty; `step-enter-written`: its Enter, once the line was echoed
 * - `output-read`: a chunk read from the pty; `output-sent`: an Output frame handed to the transport
 */
export type LatencyMarkKind = 'input' | 'input-written' | 'step-decision' | 'step-line-written' | 'step-enter-written' | 'output-read' | 'output-sent';

/**
 * One mark: `at` on the clock every Node process on the machine shares (performance.timeOrigin
 * + performance.now(), in ms); `offset` for output marks: the pane's stream bytes up to the end
 * of the chunk read, or the bytes sent to this client for the pane up to the end of the frame;
 * `queued` (Linux): how long the engine's thread has waited for a CPU while it could run, in all
 * (ms), so a hop's time splits into the engine's work and the scheduler's.
 */
export interface LatencyMark {
  at: number;
  kind: LatencyMarkKind;
  pane?: number;
  offset?: number;
  queued?: number;
}

/** Marks kept at most (a bench run makes a few thousand); later ones are dropped. */
const MAX_MARKS = 1_000_000;

/**
 * Timestamps on the engine's input and output paths for the bench (bench/README.md), which
 * splits a latency into its hops with them. Off unless `TANDEM_LATENCY_MARKS` names a file:
 * then marks are kept in memory and written there, one JSON object a line, when the process
 * exits. Off, a mark costs one comparison.
 */
export class LatencyMarks {
  private readonly marks: LatencyMark[] = [];
  private readonly runQueue: RunQueueClock | undefined;

  constructor(readonly on: boolean) {
    this.runQueue = on ? RunQueueClock.open() : undefined;
  }

  /** Now on the marks' clock; undefined when off (nothing to take a time for). */
  now(): number | undefined {
    return this.on ? performance.timeOrigin + performance.now() : undefined;
  }

  mark(kind: LatencyMarkKind, details: { pane?: number; offset?: number; at?: number } = {}): void {
    if (!this.on || this.marks.length >= MAX_MARKS) return;
    const queued = details.at === undefined ? this.runQueue?.waited() : undefined;
    this.marks.push({
      at: details.at ?? performance.timeOrigin + performance.now(),
      kind,
      ...(details.pane !== undefined && { pane: details.pane }),
      ...(details.offset !== undefined && { offset: details.offset }),
      ...(queued !== undefined && { queued }),
    });
  }

  lines(): string {
    return this.marks.map((mark) => `${JSON.stringify(mark)}\n`).join('');
  }
}

/**
 * The calling thread's time spent runnable but not running (waiting on a run queue), from
 * /proc/thread-self/schedstat (its second field, ns): one `pread` of an open file, a few µs.
 * Only the engine's main thread makes marks, so the file is that thread's.
 */
class RunQueueClock {
  private readonly buffer = Buffer.alloc(96);

  private constructor(private readonly fd: number) {}

  static open(): RunQueueClock | undefined {
    try {
      return new RunQueueClock(openSync('/proc/thread-self/schedstat', 'r'));
    } catch {
      return undefined; // not Linux, or no schedstats: marks go without it
    }
  }

  waited(): number | undefined {
    const length = readSync(this.fd, this.buffer, 0, this.buffer.length, 0);
    const nanoseconds = Number(this.buffer.toString('latin1', 0, length).split(' ')[1]);
    return Number.isFinite(nanoseconds) ? nanoseconds / 1e6 : undefined;
  }
}

function fromEnvironment(): LatencyMarks {
  const file = process.env.TANDEM_LATENCY_MARKS;
  const marks = new LatencyMarks(Boolean(file));
  if (file) {
    process.on('exit', () => {
      try {
        writeFileSync(file, marks.lines());
      } catch (error) {
        process.stderr.write(`tandem: the latency marks could not be written to ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    });
  }
  return marks;
}

/** The engine's marks, on when `TANDEM_LATENCY_MARKS` is set. */
export const latencyMarks = fromEnvironment();
