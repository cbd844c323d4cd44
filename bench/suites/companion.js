// 7. Companion, in this process (no UI, no server): what Watch mode's hint detection costs per
// finished block, next to the block tracker that builds the block from its four OSC 133 marks.
//   - the same 50,000 commands (everyday lines, pipelines, `grep -q`, `test`; exit 0, 1, 2, 127
//     or 130 from a fixed pseudo-random sequence) go through a BlockTracker (prompt, input,
//     command start, command end) and through a HintDetector; each is timed in batches of
//     BATCH blocks, so one sample is a per-block average the clock can resolve; the two
//     alternate batch by batch, so a busy neighbour slows both alike
//   - detector p99 / tracker p99, target <= 0.5x ("negligible next to the block tracker")
//   - the detector reads a failed line with the bash grammar once and remembers the verdict (people
//     repeat their commands), so the note also gives the cost of a line it has not seen before
import { importEngineModules } from '../lib/engineModules.js';
import { measure } from '../lib/report.js';
import { percentile } from '../lib/stats.js';

const BLOCKS = 50_000;
const BATCH = 100;
const COMMANDS = [
  'npm test',
  'make -j8',
  'git status',
  'ls -la /usr/local/lib',
  'grep -q TODO src/main/companion/hintDetector.ts',
  'cat package.json | grep -q \'"vitest"\'',
  'test -f out/main/index.js',
  '[ -d node_modules ] && npm run build',
  'LC_ALL=C sort -u words.txt > sorted.txt',
  'docker compose up -d --build web',
  'cargo build --release 2>&1 | tail -n 20',
  'python3 -m pytest tests/test_parser.py -k "quoted and not slow"',
];
const EXIT_CODES = [0, 1, 1, 2, 127, 130, 0, 1];

export async function companion(report) {
  const engine = await importEngineModules('companion', {
    blockTracker: 'src/main/blocks/blockTracker.ts',
    hintDetector: 'src/main/companion/hintDetector.ts',
    expectedFailure: 'src/main/companion/expectedFailure.ts',
  });
  const result = await measure(report, 'companion: hint detection per block', () => run(engine));
  if (!result) return;
  const { detector, tracker, unseen } = result;
  const p99 = (values) => percentile(values, 99);
  report.compare({
    name: 'companion: hint detection per block, p99',
    value: p99(detector) * 1000,
    unit: 'µs',
    ref: p99(tracker) * 1000,
    refName: 'block tracker per block, p99',
    better: 'lower',
    target: 0.5,
    note: `${BLOCKS} blocks in batches of ${BATCH}; detector p50 ${(percentile(detector, 50) * 1000).toFixed(2)} µs, tracker p50 ${(percentile(tracker, 50) * 1000).toFixed(2)} µs; a failed line not seen before: p50 ${(percentile(unseen, 50) * 1000).toFixed(1)} µs, p99 ${(percentile(unseen, 99) * 1000).toFixed(1)} µs`,
  });
}

async function run({ blockTracker, hintDetector, expectedFailure }) {
  const nonce = 'bench';
  const tracker = new blockTracker.BlockTracker(1, nonce, true, '/home/u');
  const finished = [];
  tracker.onFinished((block) => finished.push(block));
  const judge = new expectedFailure.ExpectedFailures();
  await judge.ready;
  const detector = new hintDetector.HintDetector(judge);
  const thresholds = { errorCascade: 3, retryLoop: 2 };
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const lines = Array.from({ length: BLOCKS }, () => ({ command: COMMANDS[next() % COMMANDS.length], exitCode: EXIT_CODES[next() % EXIT_CODES.length] }));

  const trackerSamples = [];
  const detectorSamples = [];
  let offset = 0;
  for (let start = 0; start < BLOCKS; start += BATCH) {
    const batch = lines.slice(start, start + BATCH);
    let t = performance.now();
    for (const line of batch) {
      tracker.handle({ kind: 'prompt-start', nonce }, (offset += 10));
      tracker.handle({ kind: 'input-start', nonce }, (offset += 10));
      tracker.handle({ kind: 'command-start', commandLine: line.command, nonce }, (offset += 10));
      tracker.handle({ kind: 'command-end', exitCode: line.exitCode, nonce }, (offset += 10));
    }
    trackerSamples.push((performance.now() - t) / batch.length);
    const blocks = finished.splice(0);
    t = performance.now();
    for (const block of blocks) detector.finished(block, thresholds);
    detectorSamples.push((performance.now() - t) / blocks.length);
  }
  const unseen = Array.from({ length: 2000 }, (_, i) => {
    const t = performance.now();
    judge.isExpected(`grep -q 'case ${i}' src/x${i}.c && echo found`, 1);
    return performance.now() - t;
  });
  return { detector: detectorSamples, tracker: trackerSamples, unseen };
}
