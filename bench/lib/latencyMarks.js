// The engine's latency marks (src/main/log/latencyMarks.ts): `tandem web` started with
// TANDEM_LATENCY_MARKS=<file> writes a timestamp for each hop of its input and output paths
// when it exits. The bench reads them to split a round trip into the engine's hops; every
// hop is a difference of two marks of the same process, so no clocks are compared.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A file for the engine's marks: pass `env` to startTandem, `read()` once it has stopped. */
export function latencyMarksFile() {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-bench-marks-'));
  const path = join(dir, 'marks.jsonl');
  return {
    env: { TANDEM_LATENCY_MARKS: path },
    read() {
      let text;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        throw new Error(`the engine wrote no latency marks (${error.message})`);
      }
      return new LatencyMarks(text.split('\n').filter(Boolean).map((line) => JSON.parse(line)));
    },
    cleanup() {
      // BENCH_KEEP_MARKS=<dir>: the marks file stays there, for a look at single samples.
      const keep = process.env.BENCH_KEEP_MARKS;
      if (keep) {
        mkdirSync(keep, { recursive: true });
        try {
          copyFileSync(path, join(keep, `marks-${process.pid}-${Date.now()}.jsonl`));
        } catch {
          // No marks were written (the engine did not start): nothing to keep.
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export class LatencyMarks {
  constructor(marks) {
    this.marks = marks;
  }

  /** Every mark of a kind (for a pane), in order. */
  all(kind, pane) {
    return this.marks.filter((mark) => mark.kind === kind && (pane === undefined || mark.pane === pane));
  }

  /** The first output mark of `kind` whose chunk or frame holds stream byte `offset` (1-based end). */
  holding(kind, pane, offset) {
    return this.marks.find((mark) => mark.kind === kind && mark.pane === pane && mark.offset >= offset);
  }

  /**
   * The engine's share of an echo that ended at stream byte `echoEnd`: the pty read that
   * brought it → the Output frame that carried it out (ms), the read's time, and how much of
   * the hop the engine's thread spent waiting for a CPU (`queued`; undefined without schedstats).
   */
  outputHop(pane, echoEnd) {
    const read = this.holding('output-read', pane, echoEnd);
    const sent = this.holding('output-sent', pane, echoEnd);
    if (!read || !sent) throw new Error(`no ${read ? 'output-sent' : 'output-read'} mark holds byte ${echoEnd} of pane ${pane}`);
    return { readAt: read.at, toFrame: sent.at - read.at, queued: queuedBetween(read, sent) };
  }
}

/** The engine thread's wait for a CPU between two of its marks (ms), where the engine could measure it. */
export function queuedBetween(from, to) {
  return from.queued !== undefined && to.queued !== undefined ? to.queued - from.queued : undefined;
}
