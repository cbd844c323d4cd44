// 8. Summarizer, in this process (no UI, no engine server): what `terminal_history` with
// detail "summary" costs the main model on a 5,000-line test log, and how long it takes.
//   - a vitest-like log of 5,000 lines (passing tests, three failures with stack traces, a
//     summary), the block's command `npm test`, exit 1
//   - tokens: the tool result for detail "summary" (the small model's summary, marked) vs the
//     raw head+tail excerpt the tool gives for detail "full" (default maxLines 200), both
//     counted with the engine's estimateTokens; target summary <= 0.2x raw (>= 5x smaller).
//     The summary's length is what the scripted small model answers (a 90-word summary of
//     the log, as a small model writes); the local fallback and what the small model was sent
//     are info rows
//   - time: the whole tool call (scrub, classify, request through @anthropic-ai/sdk to the
//     bench's model stub, SSE, result) with a fresh summarizer each time, vs the same request
//     body sent by the SDK directly from this process; 20 interleaved pairs; target p50 <=
//     direct + 30 ms. A cached answer's time is an info row
import Anthropic from '@anthropic-ai/sdk';
import { importEngineModules } from '../lib/engineModules.js';
import { startModelStub, text } from '../lib/modelStub.js';
import { measure } from '../lib/report.js';
import { summary } from '../lib/stats.js';

const LINES = 5_000;
const REPS = 20;
const SMALL_MODEL = 'claude-haiku-4-5';
const SMALL_ANSWER =
  'Test run failed: 3 of 4,870 tests failed, 4,867 passed, 0 skipped (41 files).\n' +
  '- src/auth/login.test.ts > login > rejects a bad password: AssertionError: expected 200 to be 401 (src/auth/login.test.ts:42:24)\n' +
  '- src/cart/total.test.ts > total > rounds to cents: AssertionError: expected 10.005 to be 10.01 (src/cart/total.test.ts:17:30)\n' +
  "- src/api/client.test.ts > client > retries on 503: TypeError: Cannot read properties of undefined (reading 'status') (src/api/client.ts:88:19)";

/** A deterministic vitest-like log: passing tests, three failures with stack traces, the totals. */
function testLog() {
  const failures = new Map([
    [1_200, ['login > rejects a bad password', 'AssertionError: expected 200 to be 401', 'src/auth/login.test.ts:42:24']],
    [2_900, ['total > rounds to cents', 'AssertionError: expected 10.005 to be 10.01', 'src/cart/total.test.ts:17:30']],
    [4_100, ['client > retries on 503', "TypeError: Cannot read properties of undefined (reading 'status')", 'src/api/client.ts:88:19']],
  ]);
  const lines = [' RUN  v3.2.4 /home/dev/shop', ''];
  let file = 0;
  while (lines.length < LINES - 8) {
    const n = lines.length;
    const failure = failures.get(n);
    if (failure) {
      const [name, error, at] = failure;
      lines.push(` ❯ ${at.split(':')[0]} (12 tests | 1 failed) 48ms`, `   × ${name} 6ms`, `     → ${error}`, '', ` FAIL  ${at.split(':')[0]} > ${name}`, error);
      for (let frame = 0; frame < 6; frame++) lines.push(`    at ${frame === 0 ? at : `node_modules/vitest/dist/runner.js:${100 + frame * 7}:${frame + 3}`}`);
      continue;
    }
    if (n % 120 === 0) lines.push(` ✓ src/module${file++}.test.ts (120 tests) ${40 + (n % 97)}ms`);
    else lines.push(`   ✓ module ${file} > behaves case ${n} when the input is ${n % 7 === 0 ? 'empty' : 'valid'} ${n % 13}ms`);
  }
  lines.push('', ' Test Files  3 failed | 38 passed (41)', '      Tests  3 failed | 4867 passed (4870)', '   Start at  09:14:02', '   Duration  21.34s (transform 1.2s, setup 0ms, collect 4.1s, tests 14.9s)', '');
  return lines.slice(0, LINES).join('\n');
}

export async function summarizer(report) {
  const engine = await importEngineModules('summarizer', {
    terminalHistory: 'src/main/context/terminalHistory.ts',
    summarizer: 'src/main/agent/summarizer/summarizer.ts',
    anthropicBackend: 'src/main/agent/backends/anthropicBackend.ts',
    tokenEstimate: 'src/main/context/tokenEstimate.ts',
  });
  const stub = await startModelStub();
  try {
    const log = testLog();
    const block = { id: 'p1b7', paneId: 1, command: 'npm test', cwd: '/home/dev/shop', startedAt: 0, endedAt: 21_340, exitCode: 1, trusted: true, outputOffset: 0, usedAlternateScreen: false };
    const backend = new engine.anthropicBackend.AnthropicBackend({ apiKey: 'bench-stub-key', baseURL: stub.url, keySource: 'bench' });
    const fresh = (choice = () => ({ ok: true, backend, model: SMALL_MODEL })) => new engine.summarizer.Summarizer({ smallModel: choice });
    const source = (summarizer) => ({
      blocks: () => [block],
      output: async () => ({ text: log, truncated: false, lineCount: LINES }),
      summarize: summarizer && ((request) => summarizer.summarize(request)),
    });
    const ask = (summarizer, detail) => engine.terminalHistory.runTerminalHistory({ blockId: block.id, detail }, source(summarizer));
    await measure(report, 'summarizer: tokens for detail "summary"', () => tokens(report, engine, stub, ask, fresh));
    await measure(report, 'summarizer: time to answer', () => time(report, stub, ask, fresh));
  } finally {
    await stub.close();
  }
}

async function tokens(report, engine, stub, ask, fresh) {
  const estimate = engine.tokenEstimate.estimateTokens;
  const raw = estimate(await ask(undefined, 'full'));
  stub.script(text(SMALL_ANSWER));
  const before = stub.requests.length;
  const summarised = await ask(fresh(), 'summary');
  if (!summarised.includes(`written by the small model ${SMALL_MODEL}`)) throw new Error(`the summary did not come from the small model:\n${summarised.slice(0, 600)}`);
  const sent = stub.requests[before];
  const local = estimate(await ask(fresh(() => ({ ok: false, reason: 'bench: local filtering' })), 'summary'));
  report.compare({
    name: `summarizer: tokens to the main model, detail "summary", ${LINES.toLocaleString('en-US')}-line test log`,
    value: estimate(summarised),
    unit: 'tok',
    ref: raw,
    refName: 'raw head+tail excerpt (detail "full")',
    better: 'lower',
    target: 0.2,
    note: `the whole tool result, header and marks included; ${(raw / estimate(summarised)).toFixed(1)}x smaller`,
  });
  report.info('summarizer: local fallback (no small model), tokens', local, 'tok', `${(raw / local).toFixed(1)}x smaller than the raw excerpt; first 5 lines, error/warning lines with context, last 10`);
  report.info('summarizer: sent to the small model', estimate(sent.rawBody), 'tok', `request body of ${sent.rawBody.length.toLocaleString('en-US')} chars (the log cut to the input budget), at ${SMALL_MODEL}'s price`);
}

async function time(report, stub, ask, fresh) {
  const sdk = new Anthropic({ apiKey: 'bench-stub-key', baseURL: stub.url, maxRetries: 0, logLevel: 'off' });
  const viaTool = [];
  const direct = [];
  const cached = [];
  for (let rep = 0; rep < REPS + 2; rep++) {
    const summarizer = fresh();
    stub.script(text(SMALL_ANSWER));
    const before = stub.requests.length;
    let started = performance.now();
    await ask(summarizer, 'summary');
    const toolMs = performance.now() - started;
    started = performance.now();
    await ask(summarizer, 'summary');
    const cachedMs = performance.now() - started;
    if (stub.requests.length !== before + 1) throw new Error('the cached answer made another request');
    const body = stub.requests[before].body;
    stub.script(text(SMALL_ANSWER));
    started = performance.now();
    await sdk.messages.stream(body).finalMessage();
    const directMs = performance.now() - started;
    // The first two warm up the SDK's connection and V8.
    if (rep < 2) continue;
    viaTool.push(toolMs);
    direct.push(directMs);
    cached.push(cachedMs);
  }
  const tool = summary(viaTool);
  const sdkOnly = summary(direct);
  report.delta({
    name: 'summarizer: terminal_history "summary" answered, p50',
    value: tool.p50,
    unit: 'ms',
    ref: sdkOnly.p50,
    refName: 'same request by the SDK directly',
    maxDelta: 30,
    note: `${REPS} interleaved pairs; p95 ${tool.p95.toFixed(1)} ms vs ${sdkOnly.p95.toFixed(1)} ms direct`,
  });
  report.info('summarizer: cached summary answered, p50', summary(cached).p50, 'ms', 'the same block asked again: no request');
}
