// 3. Ctrl+C under a `yes` flood: from the key to the prompt being back. Tandem and the
// reference page (xterm.js ↔ ws ↔ bash with the same flow control) share one browser and
// take turns, so load from elsewhere on the machine hits both alike.
import { focusPane } from '../lib/browser.js';
import { interruptSamples } from '../lib/keys.js';
import { measure } from '../lib/report.js';
import { summary } from '../lib/stats.js';
import { withBothPages } from '../lib/tandemUi.js';

// 40 by default: with 10 the p95 was the slowest sample, and with 20 the second slowest, so
// one or two stalls decided the row.
const REPETITIONS = Number(process.env.BENCH_INTERRUPT_REPS ?? 40);
const fmt = (s) => `p50 ${s.p50.toFixed(1)} / p95 ${s.p95.toFixed(1)} / max ${s.max.toFixed(1)} ms (n=${s.n})`;

export async function interrupt(report) {
  const result = await measure(report, 'Ctrl+C under `yes`', () => measurePages());
  if (!result) return;
  const { tandem, reference } = result;
  const prompt = summary(tandem.toPrompt);
  report.absolute({
    name: 'Ctrl+C under `yes` → prompt, p95',
    value: prompt.p95,
    unit: 'ms',
    limit: 100,
    note: `${fmt(prompt)}; key event → "$ " back on the cursor row of the pane's xterm, after 1 s of \`yes\``,
  });
  if (tandem.toBlock.length > 0) {
    const block = summary(tandem.toBlock);
    report.info('Ctrl+C → finished block in DOM, p95', block.p95, 'ms', `${fmt(block)}; [data-testid=block][data-exit-code] appears`);
  }
  if (tandem.blockErrors.length > 0) {
    report.note(`Ctrl+C: ${tandem.blockErrors.length} of ${REPETITIONS} finished blocks never showed in the DOM: ${tandem.blockErrors[0]}`);
  }
  const bytes = summary(tandem.bytesToPrompt);
  const refBytes = summary(reference.bytesToPrompt);
  const kb = (s) => `p50 ${(s.p50 / 1024).toFixed(0)} / p95 ${(s.p95 / 1024).toFixed(0)} / max ${(s.max / 1024).toFixed(0)} KB`;
  // What the page had to take in before the prompt: a skipped flood leaves the kept lines
  // (about 30 KB of `yes` for 10,000 lines of scrollback), not a window of backlog.
  report.info('Ctrl+C → prompt: WebSocket bytes to the page, p95', bytes.p95 / 1024, 'KB', `${kb(bytes)}; from the key until the prompt showed. Reference page: ${kb(refBytes)}`);
  const ref = summary(reference.toPrompt);
  report.info('Ctrl+C → prompt p95, reference', ref.p95, 'ms', `${fmt(ref)}; xterm.js ↔ ws ↔ node-pty bash with the same flow control`);
  // Issue 25: no slower than xterm.js alone (a skipped flood leaves nothing to chew).
  report.compare({ name: 'Ctrl+C under `yes` → prompt p95, Tandem / reference', value: prompt.p95, unit: 'ms', ref: ref.p95, refName: 'reference p95', better: 'lower', target: 1 });
  report.compare({ name: 'Ctrl+C under `yes` → prompt p50, Tandem / reference', value: prompt.p50, unit: 'ms', ref: summary(reference.toPrompt).p50, refName: 'reference p50', better: 'lower', target: 1 });
}

async function measurePages() {
  return withBothPages(async ({ tPage, paneId, rPage, refId }) => {
    const tandem = { toPrompt: [], bytesToPrompt: [], toBlock: [], blockErrors: [] };
    const reference = { toPrompt: [], bytesToPrompt: [] };
    const add = (into, part) => Object.keys(into).forEach((k) => into[k].push(...part[k]));
    for (let i = 0; i < REPETITIONS; i++) {
      await tPage.bringToFront();
      await focusPane(tPage, paneId);
      add(tandem, await interruptSamples(tPage, paneId, { count: 1, blocks: true, paneId }));
      await rPage.bringToFront();
      await focusPane(rPage, refId);
      add(reference, await interruptSamples(rPage, refId, { count: 1 }));
    }
    return { tandem, reference };
  });
}
