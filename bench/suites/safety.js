// 6. Safety, in this process (no UI, no server): how long the approval gate takes to judge a
// command, and how fast output is scrubbed of secrets before it reaches a model.
//   - command risk: classifyWithParser on every command of test/fixtures/commands/
//     (dangerous.txt, everyday.txt), one warm-up pass, then several passes; a command's time is
//     its median over the passes (a GC pause or another process on the machine lands in one
//     pass, not in the command); p50 and p99 over the commands vs 2 ms. Every single sample's
//     p99 and the raw tree-sitter parse of the same commands alongside
//   - secret scrubbing: scrubSecrets on 10 MB of mixed output (the ordinary-output fixtures of
//     test/fixtures/secrets/ with a planted-secret document after every nine of them) vs 100 MB/s;
//     beside it, on the same text, the recall (planted secrets redacted whole under a fitting
//     kind, goal ≥ 99% as issue 26 sets it) and the false positives (redactions in the ordinary
//     output, none allowed), and the share of test/fixtures/secrets/nearMiss/ cases altered
//     (placeholders, references, identifiers …; goal ≤ 5%).
//     A run's rate is over the thread's CPU time, not wall time (lib/threadCpuTime.js): on a
//     shared machine the wall clock swung the same input's median by a third between bench runs
//   - hostile input: scrubSecrets on `key=`, `token: `, `password=`, `-----BEGIN `, `sk-`, `:`, a base64 `user:password` pair each
//     repeated to 4 MB, the slowest vs 1 MB/s (a quadratic scan takes minutes)
//   - with BENCH_SAFETY_BASE=<another checkout>: the same two measurements of that checkout's
//     modules, on this checkout's commands and text, interleaved with this one's in this
//     process (a busy neighbour slows both alike), as ratios: this / base
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importEngineModules } from '../lib/engineModules.js';
import { measure } from '../lib/report.js';
import { MB, percentile } from '../lib/stats.js';
import { ROOT } from '../lib/root.js';
import { threadCpuClock, threadCpuSeconds } from '../lib/threadCpuTime.js';

const CLASSIFY_PASSES = 5;
const CLASSIFY_LIMIT_MS = 2;
const SCRUB_MB = Number(process.env.BENCH_SCRUB_MB ?? 10);
const SCRUB_RUNS = 9;
const SCRUB_LIMIT_MB_S = 100;
/** Issue 26's goals: the share of planted secrets found, of ordinary output redacted (none), of near misses altered. */
const RECALL_GOAL_PERCENT = 99;
const FALSE_POSITIVES_PER_MB_LIMIT = 0;
const NEAR_MISSES_ALTERED_LIMIT_PERCENT = 5;
/** The context of the command corpus (as in test/unit/commandRisk.test.ts). */
const HOME = '/home/u';
const RISK_CONTEXT = {
  cwd: `${HOME}/project`,
  home: HOME,
  protectedPaths: ['~/.ssh', `${HOME}/.bashrc`, `${HOME}/.zshrc`, `${HOME}/.profile`, `${HOME}/.config/fish`, `${HOME}/.config/tandem`, `${HOME}/.local/share/tandem`, `${HOME}/.local/state/tandem`, '/etc/tandem'],
};
const fmt = (values) => `p50 ${percentile(values, 50).toFixed(3)} / p99 ${percentile(values, 99).toFixed(3)} / max ${Math.max(...values).toFixed(2)} ms`;

export async function safety(report) {
  const engine = await importEngineModules('safety', { ...ENGINE_ENTRIES, plantedSecrets: 'test/fixtures/secrets/plantedSecrets.ts', nearMisses: 'test/fixtures/secrets/nearMisses.ts' });
  const risk = await measure(report, 'safety: classify command', () => classifySamples(engine));
  if (risk) reportClassification(report, risk);
  const scrub = await measure(report, 'safety: scrub secrets', () => scrubSamples(engine));
  if (scrub) reportScrubbing(report, scrub);
  await measure(report, 'safety: scrub hostile input', () => reportHostileInput(report, engine));
  const base = process.env.BENCH_SAFETY_BASE;
  if (base) await measure(report, 'safety: this checkout vs BENCH_SAFETY_BASE', () => compareWithBase(report, engine, base));
}

const ENGINE_ENTRIES = { commandRisk: 'src/main/safety/commandRisk.ts', shellParser: 'src/main/safety/shellParser.ts', secretScrubber: 'src/main/safety/secretScrubber.ts' };

// ── command risk ──────────────────────────────────────────────────────────────────────────

/** One command per line; `red: ` / `green: ` prefixes; `#` lines are comments. */
function commandCorpus() {
  const out = [];
  for (const file of ['dangerous.txt', 'everyday.txt']) {
    for (const line of readFileSync(join(ROOT, 'test/fixtures/commands', file), 'utf8').split('\n')) {
      if (line.trim() === '' || line.startsWith('#')) continue;
      out.push(line.replace(/^(?:red|green): /, ''));
    }
  }
  return out;
}

async function classifySamples({ commandRisk, shellParser }) {
  const parser = await shellParser.getShellParser();
  const commands = commandCorpus();
  for (const command of commands) commandRisk.classifyWithParser(parser, command, RISK_CONTEXT); // warm-up
  const perCommand = commands.map(() => []);
  const parse = [];
  for (let pass = 0; pass < CLASSIFY_PASSES; pass++) {
    commands.forEach((command, i) => {
      const t0 = performance.now();
      commandRisk.classifyWithParser(parser, command, RISK_CONTEXT);
      perCommand[i].push(performance.now() - t0);
      const t1 = performance.now();
      parser.parse(command).delete();
      parse.push(performance.now() - t1);
    });
  }
  const medians = perCommand.map((samples) => percentile(samples, 50));
  const slowest = medians.reduce((best, ms, i) => (ms > best.ms ? { ms, command: commands[i] } : best), { ms: 0, command: '' });
  return { commands: commands.length, medians, samples: perCommand.flat(), parse, slowest };
}

function reportClassification(report, { commands, medians, samples, parse, slowest }) {
  const note = `${commands} commands, each its median of ${CLASSIFY_PASSES} passes after a warm-up pass: ${fmt(medians)}`;
  report.absolute({ name: 'safety: classify command, p50', value: percentile(medians, 50), unit: 'ms', limit: CLASSIFY_LIMIT_MS, note });
  report.absolute({
    name: 'safety: classify command, p99',
    value: percentile(medians, 99),
    unit: 'ms',
    limit: CLASSIFY_LIMIT_MS,
    note: `slowest command ${slowest.ms.toFixed(2)} ms: ${JSON.stringify(slowest.command.slice(0, 80))}`,
  });
  report.info('safety: classify, every sample, p99', percentile(samples, 99), 'ms', `all ${samples.length} samples, GC pauses and machine noise included: ${fmt(samples)}`);
  report.info('safety: raw tree-sitter parse, p99', percentile(parse, 99), 'ms', `the same commands, parse + free only: ${fmt(parse)}`);
}

// ── secret scrubbing ──────────────────────────────────────────────────────────────────────

/**
 * Ordinary output with a planted-secret document after every nine ordinary files, up to `mb` MB;
 * with where each planted secret is (absolute `start`, `end`, the kinds that `fit` it) and how
 * much of the text is ordinary output (`ordinary`: [start, end) ranges).
 */
function mixedOutput(fillTemplate, mb) {
  const fixtures = join(ROOT, 'test/fixtures/secrets');
  const ordinary = readdirSync(join(fixtures, 'ordinary')).sort().map((f) => readFileSync(join(fixtures, 'ordinary', f), 'utf8'));
  const templates = readdirSync(join(fixtures, 'planted')).sort().map((f) => [f, readFileSync(join(fixtures, 'planted', f), 'utf8')]);
  const parts = [];
  const secrets = [];
  const ordinaryRanges = [];
  let size = 0;
  let planted = 0;
  for (let i = 0; size < mb * MB; i++) {
    let part;
    if (i % 10 === 9) {
      const [name, template] = templates[planted % templates.length];
      const doc = fillTemplate(name, template, ++planted);
      for (const secret of doc.secrets) secrets.push({ start: size + secret.start, end: size + secret.end, secret });
      part = doc.text;
    } else {
      part = ordinary[i % ordinary.length];
      ordinaryRanges.push([size, size + part.length]);
    }
    parts.push(part);
    size += part.length;
  }
  return { text: parts.join(''), planted: secrets.length, secrets, ordinary: ordinaryRanges };
}

/**
 * Recall: planted secrets that one redacted span covers whole, under a kind that fits (as in
 * test/unit/secretScrubberCorpus.test.ts), over all planted. False positives: redacted spans
 * inside the ordinary output (which holds no secret), per MB of ordinary output.
 */
function accuracy(spans, { secrets, ordinary }, fitsKind) {
  let found = 0;
  let s = 0;
  for (const secret of secrets) {
    while (s < spans.length && spans[s].end <= secret.start) s++;
    for (let k = s; k < spans.length && spans[k].start <= secret.start; k++) {
      if (spans[k].end >= secret.end && fitsKind(secret.secret, spans[k].kind)) {
        found++;
        break;
      }
    }
  }
  let falsePositives = 0;
  let ordinaryChars = 0;
  let o = 0;
  for (const [start, end] of ordinary) {
    ordinaryChars += end - start;
    while (o < spans.length && spans[o].end <= start) o++;
    for (let k = o; k < spans.length && spans[k].start < end; k++) falsePositives++;
  }
  return { found, recall: found / secrets.length, falsePositives, perMB: falsePositives / (ordinaryChars / MB) };
}

async function scrubSamples({ secretScrubber, plantedSecrets, nearMisses }) {
  const mixed = mixedOutput(plantedSecrets.fillTemplate, SCRUB_MB);
  const { text, planted } = mixed;
  const found = accuracy(secretScrubber.findSecrets(text), mixed, plantedSecrets.fitsKind);
  const misses = nearMisses.nearMisses(undefined, pathToFileURL(join(ROOT, 'test/fixtures/secrets/nearMiss/')));
  const altered = misses.filter((m) => secretScrubber.scrubSecrets(m.text).text !== m.text).length;
  const first = secretScrubber.scrubSecrets(text); // warm-up
  const redacted = first.redactions.reduce((sum, r) => sum + r.count, 0);
  const rates = [];
  const wallRates = [];
  for (let run = 0; run < SCRUB_RUNS; run++) {
    const cpu0 = threadCpuSeconds();
    const t0 = performance.now();
    secretScrubber.scrubSecrets(text);
    const wall = (performance.now() - t0) / 1000;
    rates.push(text.length / MB / (threadCpuSeconds() - cpu0));
    wallRates.push(text.length / MB / wall);
  }
  return { chars: text.length, planted, redacted, rates, wallRates, found, nearMisses: { total: misses.length, altered } };
}

function reportScrubbing(report, { chars, planted, redacted, rates, wallRates, found, nearMisses }) {
  const sorted = [...rates].sort((a, b) => a - b);
  report.absolute({
    name: `safety: scrubSecrets on ${(chars / MB).toFixed(0)} MB of mixed output, median (CPU time)`,
    value: percentile(rates, 50),
    unit: 'MB/s',
    limit: SCRUB_LIMIT_MB_S,
    better: 'higher',
    note: `${SCRUB_RUNS} runs after a warm-up: ${sorted.map((r) => r.toFixed(1)).join(', ')} MB/s of ${threadCpuClock} (MB = 2^20 UTF-16 characters); wall-clock median ${percentile(wallRates, 50).toFixed(1)} MB/s; ${planted} planted secrets, ${redacted} redactions per pass`,
  });
  report.absolute({
    name: 'safety: scrubSecrets recall on the planted secrets',
    value: found.recall * 100,
    unit: '%',
    limit: RECALL_GOAL_PERCENT,
    better: 'higher',
    orEqual: true,
    note: `${found.found} of ${planted} planted secrets redacted whole under a fitting kind (test/fixtures/secrets/planted/, filled with seeds 1…n); goal ≥ ${RECALL_GOAL_PERCENT}% (issue 26)`,
  });
  report.absolute({
    name: 'safety: scrubSecrets false positives in ordinary output',
    value: found.perMB,
    unit: 'per MB',
    limit: FALSE_POSITIVES_PER_MB_LIMIT,
    orEqual: true,
    note: `${found.falsePositives} redactions in the ordinary-output parts of the text (they hold no secret)`,
  });
  report.absolute({
    name: 'safety: scrubSecrets near misses altered',
    value: (nearMisses.altered / nearMisses.total) * 100,
    unit: '%',
    limit: NEAR_MISSES_ALTERED_LIMIT_PERCENT,
    orEqual: true,
    note: `${nearMisses.altered} of ${nearMisses.total} cases of test/fixtures/secrets/nearMiss/ altered (placeholders, placeholder pairs, shell expansions, references, identifiers, public ids, hashes, settings, versions, base64 of text); goal ≤ ${NEAR_MISSES_ALTERED_LIMIT_PERCENT}% (issue 26)`,
  });
}

// ── hostile input ─────────────────────────────────────────────────────────────────────────

/** Shapes that once made the scrubber quadratic (`key=` × 1M took 50–80 s), each repeated to 4 MB; the last, a base64 `user:password` pair, is decoded and searched once per run. */
const HOSTILE_UNITS = ['key=', 'token: ', 'password=', '-----BEGIN ', 'sk-', ':', `${Buffer.from('user:Sup3rS3cret!xyz').toString('base64')} `];
const HOSTILE_MB = 4;
const HOSTILE_LIMIT_MB_S = 1;

function reportHostileInput(report, { secretScrubber }) {
  const rates = HOSTILE_UNITS.map((unit) => {
    const text = unit.repeat(Math.ceil((HOSTILE_MB * MB) / unit.length));
    const cpu0 = threadCpuSeconds();
    secretScrubber.scrubSecrets(text);
    return { unit, rate: text.length / MB / (threadCpuSeconds() - cpu0) };
  });
  const slowest = rates.reduce((a, b) => (b.rate < a.rate ? b : a));
  report.absolute({
    name: `safety: scrubSecrets on hostile input (${HOSTILE_MB} MB of one short unit), slowest`,
    value: slowest.rate,
    unit: 'MB/s',
    limit: HOSTILE_LIMIT_MB_S,
    better: 'higher',
    note: `one run each (CPU time): ${rates.map((r) => `${JSON.stringify(r.unit)} ${r.rate.toFixed(1)}`).join(', ')} MB/s; a quadratic scan would take minutes`,
  });
}

// ── against another checkout ────────────────────────────────────────────────────────────────

const COMPARE_ROUNDS = 15;

async function compareWithBase(report, engine, baseRoot) {
  const base = await importEngineModules('safety-base', ENGINE_ENTRIES, baseRoot);
  const trees = { this: engine, base };
  const order = (round) => (round % 2 ? ['this', 'base'] : ['base', 'this']);

  const commands = commandCorpus();
  const parsers = {};
  for (const [name, tree] of Object.entries(trees)) {
    parsers[name] = await tree.shellParser.getShellParser();
    for (const command of commands) tree.commandRisk.classifyWithParser(parsers[name], command, RISK_CONTEXT);
  }
  const perCommand = { this: commands.map(() => []), base: commands.map(() => []) };
  for (let pass = 0; pass < 2 * CLASSIFY_PASSES; pass++) {
    for (const name of order(pass)) {
      commands.forEach((command, i) => {
        const t0 = performance.now();
        trees[name].commandRisk.classifyWithParser(parsers[name], command, RISK_CONTEXT);
        perCommand[name][i].push(performance.now() - t0);
      });
    }
  }
  const p99 = (name) => percentile(perCommand[name].map((samples) => percentile(samples, 50)), 99);
  report.info('safety: classify p99, this / base', p99('this') / p99('base'), 'x', `${commands.length} commands of this checkout, each its median of ${2 * CLASSIFY_PASSES} passes, the two interleaved: this ${p99('this').toFixed(3)} ms, base ${p99('base').toFixed(3)} ms (${baseRoot})`);

  const mixed = mixedOutput(engine.plantedSecrets.fillTemplate, SCRUB_MB);
  const { text } = mixed;
  for (const tree of Object.values(trees)) tree.secretScrubber.scrubSecrets(text);
  const baseAccuracy = accuracy(base.secretScrubber.findSecrets(text), mixed, engine.plantedSecrets.fitsKind);
  report.info('safety: scrubSecrets recall, base', baseAccuracy.recall * 100, '%', `${baseAccuracy.found} of ${mixed.planted} planted secrets; false positives in ordinary output ${baseAccuracy.falsePositives} (${baseAccuracy.perMB.toFixed(2)} per MB) (${baseRoot})`);
  const rates = { this: [], base: [] };
  const ratios = [];
  for (let round = 0; round < COMPARE_ROUNDS; round++) {
    const got = {};
    for (const name of order(round)) {
      const cpu0 = threadCpuSeconds();
      trees[name].secretScrubber.scrubSecrets(text);
      got[name] = text.length / MB / (threadCpuSeconds() - cpu0);
      rates[name].push(got[name]);
    }
    ratios.push(got.this / got.base);
  }
  const quartiles = (values, digits) => `${percentile(values, 25).toFixed(digits)}–${percentile(values, 75).toFixed(digits)}`;
  report.info(
    'safety: scrubSecrets MB/s, this / base',
    percentile(ratios, 50),
    'x',
    `median of ${COMPARE_ROUNDS} interleaved rounds on the same ${(text.length / MB).toFixed(0)} MB (${threadCpuClock}): this ${percentile(rates.this, 50).toFixed(1)} MB/s (quartiles ${quartiles(rates.this, 1)}), base ${percentile(rates.base, 50).toFixed(1)} MB/s (${quartiles(rates.base, 1)}); per-round ratio quartiles ${quartiles(ratios, 3)}`,
  );
}
