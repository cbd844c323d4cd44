// Push-to-talk (issue 29 "Bench"; docs/voice.md "Speed"), part of the watchers suite: `tandem
// web` in Debian's Chromium with a fake microphone playing espeak-ng's "list the files here"
// (the e2e test's flags and WAV: test/support/spokenWav.ts), and the scripted transcription
// server of the tests (test/support/transcriptionServer.ts) on loopback, which times its own
// handling of each request. Ctrl+Shift+M is held at the pane until the recording has run a
// second, then released; from the release's keyup (its event timestamp) to the first animation
// frame in which the AI input holds the transcript, minus the server's time: what Tandem adds
// (the recording's last samples, the WAV, the hop to the engine, the request and its answer,
// the input). The first round after the page loaded is reported on its own.
import { dirname } from 'node:path';
import { rmSync } from 'node:fs';
import { focusPane, launchBrowser, openTandem } from '../lib/browser.js';
import { importEngineModules } from '../lib/engineModules.js';
import { startModelStub } from '../lib/modelStub.js';
import { summary } from '../lib/stats.js';
import { requireRendererBuild, startTandem } from '../lib/tandem.js';

const ROUNDS = Number(process.env.BENCH_PTT_ROUNDS ?? 10);
/** Issue 29: release → transcript shown, at most this much over the server's own time. */
const LIMIT_MS = 100;
const PHRASE = 'list the files here';
const fmt = (s) => `p50 ${s.p50.toFixed(1)} / p95 ${s.p95.toFixed(1)} / max ${s.max.toFixed(1)} ms (n=${s.n})`;

export async function pushToTalk(report) {
  requireRendererBuild();
  const { transcriptionServer, spokenWav } = await importEngineModules('pushToTalk', {
    transcriptionServer: 'test/support/transcriptionServer.ts',
    spokenWav: 'test/support/spokenWav.ts',
  });
  const wav = spokenWav.spokenWav(PHRASE);
  const stt = await transcriptionServer.startTranscriptionServer({ text: PHRASE });
  const model = await startModelStub();
  let tandem;
  let browser;
  try {
    tandem = await startTandem({
      config: `\n[voice]\nendpoint = "${stt.url}"\nlanguage = "en"\n`,
      env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'bench-stub-key', TANDEM_MODEL: 'claude-sonnet-4-6' },
    });
    browser = await launchBrowser({ args: ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${wav}`] });
    await browser.context.addInitScript(timeTheRelease, PHRASE);
    const { page, paneId } = await openTandem(browser, tandem);
    const rounds = [];
    for (let round = 0; round <= ROUNDS; round++) rounds.push(await speak(page, paneId, stt, round));
    if (model.requests.length > 0) throw new Error('a transcript was sent to the model: the rounds must only land it in the input');
    const [cold, ...warm] = rounds;
    const over = summary(warm.map((r) => r.shown - r.server));
    const note = `release → shown ${fmt(summary(warm.map((r) => r.shown)))}; the server's own time ${fmt(summary(warm.map((r) => r.server)))}; ${ROUNDS} rounds of ${summary(warm.map((r) => r.seconds)).p50.toFixed(1)} s recordings, the key held at the pane, the transcript landing as "# ${PHRASE}"`;
    report.info('push-to-talk: first use, release → transcript shown over the server', cold.shown - cold.server, 'ms', `release → shown ${cold.shown.toFixed(1)} ms, server ${cold.server.toFixed(1)} ms: the first recording after the page loaded (the engine's first transcription request)`);
    report.absolute({ name: 'push-to-talk: release → transcript shown over the server, p50', value: over.p50, unit: 'ms', limit: LIMIT_MS, orEqual: true, refName: 'issue 29', note });
    report.absolute({ name: 'push-to-talk: release → transcript shown over the server, p95', value: over.p95, unit: 'ms', limit: LIMIT_MS, orEqual: true, refName: 'issue 29' });
  } finally {
    await browser?.close();
    await tandem?.stop();
    await stt.close();
    await model.close();
    rmSync(dirname(wav), { recursive: true, force: true });
  }
}

/**
 * In the page, before the app: the first keyup after `window.__pushToTalk` is reset is the
 * release; from then on each animation frame looks at the AI input until it holds the phrase.
 */
function timeTheRelease(phrase) {
  window.__pushToTalk = {};
  window.addEventListener(
    'keyup',
    (event) => {
      const timing = window.__pushToTalk;
      if (timing.released !== undefined) return;
      timing.released = event.timeStamp;
      const look = () => {
        if (document.querySelector('[data-testid="ai-input"]')?.value.includes(phrase)) timing.shown = performance.now();
        else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    },
    true,
  );
}

/** One round: hold the key at the pane for a second of recording, let go, wait for the transcript; then Esc puts the input back. */
async function speak(page, paneId, stt, round) {
  await focusPane(page, paneId);
  await page.evaluate(() => (window.__pushToTalk = {}));
  await page.keyboard.down('Control');
  await page.keyboard.down('Shift');
  await page.keyboard.down('M');
  await page.waitForFunction(() => document.querySelector('[data-testid="voice-elapsed"]')?.textContent === '0:01', undefined, { timeout: 20_000 });
  await page.keyboard.up('M');
  await page.keyboard.up('Shift');
  await page.keyboard.up('Control');
  const timing = await (await page.waitForFunction(() => window.__pushToTalk.shown !== undefined && window.__pushToTalk, undefined, { timeout: 20_000 })).jsonValue();
  const request = stt.requests[round];
  const heard = request?.file?.wav;
  if (!heard || 'problem' in heard) throw new Error(`round ${round}: the transcription server got no valid WAV (${heard?.problem ?? 'no request'})`);
  if (request.handledMs === undefined) throw new Error(`round ${round}: the transcript was shown before the server had answered`);
  const input = page.getByTestId('ai-input');
  await input.press('Escape');
  await page.waitForFunction(() => document.querySelector('[data-testid="ai-input"]')?.value === '', undefined, { timeout: 10_000 });
  return { shown: timing.shown - timing.released, server: request.handledMs, seconds: heard.seconds };
}
