// How much of an engine hop was the scheduler's: the engine's latency marks carry the time its
// thread has waited for a CPU while it could run (Linux schedstats, `queued`), so a hop that
// missed its limit says whether the engine worked that long or sat in a run queue behind
// other processes (the bench machine is shared) and its own background threads.
import { summary } from './stats.js';

const fmt = (s) => `p50 ${s.p50.toFixed(2)} / p95 ${s.p95.toFixed(2)} / max ${s.max.toFixed(1)} ms (n=${s.n})`;

/** An info row beside the hop `name`: its samples' waits for a CPU, and the hop without them. */
export function reportRunQueue(report, name, hop, queued) {
  if (queued.length !== hop.length) {
    report.note(`${name}: the engine's marks carry no run-queue times here (not Linux?), so the hop is not split`);
    return;
  }
  const waited = summary(queued);
  const working = summary(hop.map((ms, i) => ms - queued[i]));
  report.info(
    `${name}, waiting for a CPU, p95`,
    waited.p95,
    'ms',
    `${fmt(waited)}; of each sample of the row above, the time the engine's thread could run but had no CPU (/proc/thread-self/schedstat at both marks). ` +
      `The hop without it: ${fmt(working)}`,
  );
}
