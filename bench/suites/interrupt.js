// 3. Ctrl+C under a `yes` flood: from the key to the prompt being back.
import { focusPane, launchBrowser, openTandem, waitForPrompt } from '../lib/browser.js';
import { interruptSamples } from '../lib/keys.js';
import { startReferenceServer } from '../lib/referenceServer.js';
import { measure } from '../lib/report.js';
import { summary } from '../lib/stats.js';
import { makeHome, requireRendererBuild, startTandem } from '../lib/tandem.js';
import { terminalOptions } from '../lib/tandemUi.js';

const REPETITIONS = 10;
const fmt = (s) => `p50 ${s.p50.toFixed(1)} / p95 ${s.p95.toFixed(1)} / max ${s.max.toFixed(1)} ms (n=${s.n})`;

export async function interrupt(report) {
  const tandem = await measure(report, 'Ctrl+C: Tandem', () => measureTandem());
  const reference = await measure(report, 'Ctrl+C: reference', () => measureReference(tandem?.options));
  if (tandem) {
    const prompt = summary(tandem.toPrompt);
    report.absolute({
      name: 'Ctrl+C under `yes` → prompt, p95',
      value: prompt.p95,
      unit: 'ms',
      limit: 150,
      note: `${fmt(prompt)}; key → "$ " back on the cursor row of the pane's xterm`,
    });
    if (tandem.toBlock.length > 0) {
      const block = summary(tandem.toBlock);
      report.info('Ctrl+C → finished block in DOM, p95', block.p95, 'ms', `${fmt(block)}; [data-testid=block][data-exit-code] appears`);
    }
    if (tandem.blockErrors.length > 0) {
      report.note(`Ctrl+C: ${tandem.blockErrors.length} of ${REPETITIONS} finished blocks never showed in the DOM: ${tandem.blockErrors[0]}`);
    }
  }
  if (reference) {
    const prompt = summary(reference.toPrompt);
    report.info('Ctrl+C → prompt p95, reference', prompt.p95, 'ms', `${fmt(prompt)}; xterm.js ↔ ws ↔ node-pty bash with the same flow control`);
  }
}

async function measureTandem() {
  requireRendererBuild();
  const tandem = await startTandem();
  const browser = await launchBrowser();
  try {
    const { page, paneId } = await openTandem(browser, tandem);
    const options = await terminalOptions(page, paneId);
    await focusPane(page, paneId);
    const result = await interruptSamples(page, paneId, { count: REPETITIONS, blocks: true, paneId });
    return { ...result, options };
  } finally {
    await browser.close();
    await tandem.stop();
  }
}

async function measureReference(options = { cols: 120, rows: 40 }) {
  const home = makeHome();
  const server = await startReferenceServer({ ptyEnv: home.env, ptyCwd: home.home });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    const { renderer: _r, ...termOptions } = options;
    const id = await page.evaluate((o) => window.__ref.createTerminal(o), termOptions);
    await page.evaluate((termId) => window.__ref.connectPty(termId), id);
    await waitForPrompt(page, id);
    await focusPane(page, id);
    return await interruptSamples(page, id, { count: REPETITIONS });
  } finally {
    await browser.close();
    await server.stop();
    home.cleanup();
  }
}
