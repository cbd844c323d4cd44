import { writeFileSync } from 'node:fs';

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
 * of the chunk read, or the bytes sent to this client for the pane up to the end of the frame.
 */
export interface LatencyMark {
  at: number;
  kind: LatencyMarkKind;
  pane?: number;
  offset?: number;
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

  constructor(readonly on: boolean) {}

  /** Now on the marks' clock; undefined when off (nothing to take a time for). */
  now(): number | undefined {
    return this.on ? performance.timeOrigin + performance.now() : undefined;
  }

  mark(kind: LatencyMarkKind, details: { pane?: number; offset?: number; at?: number } = {}): void {
    if (!this.on || this.marks.length >= MAX_MARKS) return;
    this.marks.push({ at: details.at ?? performance.timeOrigin + performance.now(), kind, ...(details.pane !== undefined && { pane: details.pane }), ...(details.offset !== undefined && { offset: details.offset }) });
  }

  lines(): string {
    return this.marks.map((mark) => `${JSON.stringify(mark)}\n`).join('');
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
