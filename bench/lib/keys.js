// Keystroke measurements shared by the Tandem page and the reference page: keys are pressed
// through Playwright (CDP), but timed inside the page, from the keydown event's timestamp to
// the write-parsed event after which xterm's buffer shows the result.
import { sleep } from './stats.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** The key event's own timestamp; falls back to the handler time if the two disagree wildly. */
function elapsed(result) {
  const fromStamp = result.at - result.keyStamp;
  const fromHandler = result.at - result.keyHandler;
  return fromStamp >= fromHandler && fromStamp - fromHandler < 1_000 ? fromStamp : fromHandler;
}

/**
 * Types letters at the prompt of terminal `id`, one at a time, each after the previous echo;
 * clears the line (Ctrl+U) every `perLine` letters. Returns `count` echo times in ms (after
 * `warmup` discarded samples) and the mean wait of the key events in the renderer's queue.
 */
export async function echoSamples(page, id, { count = 200, warmup = 10, pauseMs = 10, perLine = 40 } = {}) {
  const prompt = await page.evaluate((termId) => window.__bench.cursorText(termId), id);
  const samples = [];
  let queued = 0;
  const toPage = [];
  await page.evaluate((termId) => window.__bench.startEcho(termId), id);
  try {
    for (let i = 0; i < count + warmup; i++) {
      if (i > 0 && i % perLine === 0) {
        await page.evaluate(([termId, text]) => window.__bench.arm('clear', termId, 'cursorTextIs', [text], 10_000), [id, prompt]);
        await page.keyboard.press('Control+U');
        await page.evaluate(() => window.__bench.result('clear'));
      }
      const letter = LETTERS[i % LETTERS.length];
      await page.keyboard.press(letter);
      const sample = await page.evaluate(() => window.__bench.nextEcho());
      if (sample.key !== letter) throw new Error(`the last keydown was ${JSON.stringify(sample.key)}, not ${letter}`);
      if (i >= warmup) {
        samples.push(elapsed(sample));
        queued += sample.keyHandler - sample.keyStamp;
        if (sample.firstMessage > 0) toPage.push(sample.firstMessage - sample.keyStamp);
      }
      await sleep(pauseMs + Math.random() * pauseMs);
    }
  } finally {
    await page.evaluate(() => window.__bench.stopEcho());
  }
  await page.evaluate(([termId, text]) => window.__bench.arm('clear', termId, 'cursorTextIs', [text], 10_000), [id, prompt]);
  await page.keyboard.press('Control+U');
  await page.evaluate(() => window.__bench.result('clear'));
  return { samples, inputQueueMs: queued / count, toPage };
}

/**
 * Runs `yes` in terminal `id`, lets it flood for `floodMs`, presses Ctrl+C and measures until
 * the prompt is back on the cursor row (and, in Tandem, until the block's end is in the DOM);
 * also the WebSocket bytes the page received from the key until the prompt showed.
 */
export async function interruptSamples(page, id, { count = 10, floodMs = 1_000, blocks = false, paneId } = {}) {
  const prompt = await page.evaluate((termId) => window.__bench.cursorText(termId), id);
  const toPrompt = [];
  const bytesToPrompt = [];
  const toBlock = [];
  const blockErrors = [];
  for (let i = 0; i < count; i++) {
    await page.keyboard.type('yes');
    await page.keyboard.press('Enter');
    await sleep(floodMs);
    await page.evaluate(([termId, text]) => window.__bench.arm('prompt', termId, 'cursorTextIs', [text], 15_000), [id, prompt]);
    if (blocks) await page.evaluate((pane) => window.__bench.armBlockEnd('block', pane, 15_000), paneId);
    await page.keyboard.press('Control+C');
    const back = await page.evaluate(() => window.__bench.result('prompt'));
    if (back.key !== 'c' && back.key !== 'C') throw new Error(`the last keydown was ${JSON.stringify(back.key)}, not Ctrl+C`);
    toPrompt.push(elapsed(back));
    bytesToPrompt.push(back.bytesSinceKey);
    if (blocks) {
      try {
        toBlock.push(elapsed(await page.evaluate(() => window.__bench.result('block'))));
      } catch (error) {
        blockErrors.push(error.message);
      }
    }
    await sleep(200);
  }
  return { toPrompt, bytesToPrompt, toBlock, blockErrors };
}
