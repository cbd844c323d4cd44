// History: the block history store at 100,000 generated records — search as you type through
// the store (the owner's worker thread included), cold open, size — how much a digest search
// holds up the thread that calls the store, and what recording blocks costs the engine.
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineClient, atPrompt } from '../lib/engineClient.js';
import { importEngineModules } from '../lib/engineModules.js';
import { writeLogFile } from '../lib/logFile.js';
import { openRawPty, outputChannel } from '../lib/nodeEcho.js';
import { measure } from '../lib/report.js';
import { ROOT } from '../lib/root.js';
import { MB, sleep, summary } from '../lib/stats.js';
import { makeHome, requireBuild, startTandem } from '../lib/tandem.js';

const RECORDS = Number(process.env.BENCH_HISTORY_RECORDS ?? 100_000);
const SEARCH_ROUNDS = 60;
const SEARCH_LIMIT_MS = 30;
const STALL_SAMPLES = 100;
const RECORDING_SAMPLES = Number(process.env.BENCH_ECHO_SAMPLES ?? 200);
const RECORDING_FILE_MB = Number(process.env.BENCH_HISTORY_FILE_MB ?? 20);
/** Text no command or digest holds: the search reads every record's digest (its worst case). */
const DIGEST_SEARCH = { query: 'connection reset by peer', fields: 'all' };
const fmt = (s) => `p50 ${s.p50.toFixed(2)} / p95 ${s.p95.toFixed(2)} / max ${s.max.toFixed(1)} ms (n=${s.n})`;

export async function history(report) {
  requireBuild('the history rows');
  const { store: storeModule, database: databaseModule } = await importEngineModules('history', {
    store: 'src/main/history/historyStore.ts',
    database: 'src/main/history/historyDatabase.ts',
  });
  const { HistoryStore } = storeModule;
  const { HistoryDatabase } = databaseModule;
  // The owner thread as the app runs it: electron-vite's bundle of ownerWorker.ts.
  const ownerWorkerLocation = builtOwnerWorker();
  const dir = mkdtempSync(join(tmpdir(), 'tandem-bench-history-'));
  const file = join(dir, 'history.sqlite');
  try {
    const filled = await measure(report, 'history: 100k records written', () => fill(HistoryDatabase, file));
    if (!filled) return;
    const bytes = statSync(file).size;
    report.info('history: database size per 100k blocks', (bytes / MB) * (100_000 / RECORDS), 'MB', `${RECORDS} generated blocks (command, cwd, repo, digest of 2-3 lines); ${(bytes / RECORDS).toFixed(0)} bytes a block; written in ${(filled.ms / 1000).toFixed(1)} s in batches of 1000`);
    await measure(report, 'history: cold open', () => coldOpen(report, HistoryStore, HistoryDatabase, file, ownerWorkerLocation));
    await measure(report, 'history: search as you type', () => searchAsYouType(report, HistoryStore, file, ownerWorkerLocation));
    await measure(report, 'history: echo during digest searches', () => digestStall(report, HistoryStore, file, ownerWorkerLocation));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await measure(report, 'history: recording on vs off', () => recordingCost(report));
}

/** The worker script of the build (out/main/chunks), found by what it says when loaded elsewhere. */
function builtOwnerWorker() {
  const chunks = join(ROOT, 'out/main/chunks');
  const name = readdirSync(chunks).find((entry) => entry.startsWith('ownerWorker-') && readFileSync(join(chunks, entry), 'utf8').includes('runs as a worker thread'));
  if (!name) throw new Error('out/main/chunks has no history owner worker; run npm run build');
  return join(chunks, name);
}

const programs = ['git', 'npm', 'docker', 'kubectl', 'cargo', 'ls', 'grep', 'ssh', 'make', 'node', 'python3', 'curl', 'rsync', 'tar', 'find', 'vim', 'cd', 'jq', 'psql', 'terraform'];
const args = ['status', 'install', 'run build', 'ps -a', 'logs -f web', 'test --release', '-la', '-rn TODO src', 'deploy@host', 'clean', 'bench/run.js', '-m http.server', 'https://example.invalid/api/v1', 'xzf pkg.tgz', '. -name *.ts', 'commit -m "fix parser"', 'apply -auto-approve', '.items[] | .name', '-c "select 1"', 'checkout -b feature/x'];
const authors = ['you', 'you', 'you', 'agent-step', 'auto-run', 'child-agent'];

/**
 * 100,000 blocks a minute apart (about 70 days), 20 programs × 20 arguments with a random
 * suffix, so nearly every command text is distinct: the worst case for the index of distinct
 * commands that relevance and fuzzy search scan (a real history repeats itself far more).
 */
function generator() {
  let seed = 7;
  const random = (n) => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % n;
  const hex = () => random(0xffffff).toString(16);
  return (i) => {
    const failed = random(10) === 0;
    const project = `/home/user/project${random(200)}`;
    return {
      command: `${programs[random(programs.length)]} ${args[random(args.length)]} ${hex()}${random(3) ? '' : ` src/${hex()}.ts`}`,
      cwd: project,
      repoRoot: project,
      gitBranch: random(4) ? 'main' : `feature/${hex()}`,
      host: random(5) ? 'laptop' : 'build-server',
      shell: 'bash',
      pane: `pane-${random(8)}`,
      session: `session-${Math.floor(i / 50)}`,
      startedAt: 1_700_000_000_000 + i * 60_000,
      endedAt: 1_700_000_000_000 + i * 60_000 + 1500,
      durationMs: 1500,
      exitCode: failed ? 1 : 0,
      author: authors[random(authors.length)],
      outputDigest: `first line of output ${hex()}\n…\nlast line ${hex()}${failed ? `\nerror: something failed in ${hex()}` : ''}`,
    };
  };
}

async function fill(HistoryDatabase, file) {
  const generated = generator();
  const t0 = performance.now();
  const db = HistoryDatabase.open(file, (message) => console.error(message));
  try {
    for (let i = 0; i < RECORDS; i += 1000) {
      db.record(Array.from({ length: Math.min(1000, RECORDS - i) }, (_, j) => generated(i + j)));
      // Let the event loop breathe between batches, like the owner does.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    db.close();
  }
  return { ms: performance.now() - t0 };
}

/** Open as the app does after a clean exit (the thread, the file, the index) until the first relevance search answers. */
async function coldOpen(report, HistoryStore, HistoryDatabase, file, ownerWorkerLocation) {
  const t0 = performance.now();
  const store = await HistoryStore.open({ file, ownerIn: 'worker', ownerWorkerLocation, report: (message) => console.error(message) });
  const opened = performance.now();
  const first = await store.search({ query: 'kub', rank: 'relevance', match: 'fuzzy' });
  const answered = performance.now();
  await store.close();
  if (!first.ok) throw new Error(first.error);
  report.info(
    'history: cold open → first fuzzy relevance result',
    answered - t0,
    'ms', `thread started and database opened ${(opened - t0).toFixed(0)} ms, then the index of ${RECORDS} records built and the search answered ${(answered - opened).toFixed(0)} ms; the owner builds the index right after opening, so typing usually finds it ready`,
  );
  const t1 = performance.now();
  const checked = HistoryDatabase.open(file, () => {}, undefined, true);
  const checkedMs = performance.now() - t1;
  checked.close();
  report.info('history: open after a crash (every page checked)', checkedMs, 'ms', 'PRAGMA quick_check, done only when the last owner did not close the file (its WAL or lock is left)');
}

/**
 * Each query through HistoryStore.search from this thread, the owner in its worker: the hop
 * there and back, the index scan, the 50 records read from SQL. Rounds interleave the cases.
 */
async function searchAsYouType(report, HistoryStore, file, ownerWorkerLocation) {
  const store = await HistoryStore.open({ file, ownerIn: 'worker', ownerWorkerLocation, report: (message) => console.error(message) });
  try {
    const from = '/home/user/project7';
    const cases = [
      ['3 characters "kub", substring + relevance', { query: 'kub', rank: 'relevance', match: 'substring', from }],
      ['12 characters "kubectl logs", substring + relevance', { query: 'kubectl logs', rank: 'relevance', match: 'substring', from }],
      ['3 characters "gco", fuzzy + relevance', { query: 'gco', rank: 'relevance', match: 'fuzzy', from }],
      ['12 characters "kubectl logs", fuzzy + relevance', { query: 'kubectl logs', rank: 'relevance', match: 'fuzzy', from }],
    ];
    const samples = cases.map(() => []);
    const hits = cases.map(() => 0);
    // Warm-up: the index is built and the code is optimised, as after a few keystrokes.
    for (const [, query] of cases) await store.search(query);
    for (let round = 0; round < SEARCH_ROUNDS; round++) {
      for (let c = 0; c < cases.length; c++) {
        const t0 = performance.now();
        const result = await store.search(cases[c][1]);
        samples[c].push(performance.now() - t0);
        if (!result.ok) throw new Error(result.error);
        hits[c] = result.value.length;
      }
    }
    cases.forEach(([label], c) => {
      const s = summary(samples[c]);
      report.absolute({ name: `history: search ${label}, p95`, value: s.p95, unit: 'ms', limit: SEARCH_LIMIT_MS, orEqual: true, note: `${fmt(s)}; ${hits[c]} results (of 50 asked) from ${RECORDS} records` });
    });
  } finally {
    await store.close();
  }
}

/**
 * What a digest search costs the thread that calls the store: a raw bash in node-pty in this
 * process, echo sampled while this process searches every record's digest in a loop (`fields:
 * "all"`, a scan of all rows): with the owner in this thread (how the engine ran it before
 * issue 27's worker) and in its worker thread (now).
 */
async function digestStall(report, HistoryStore, file, ownerWorkerLocation) {
  const home = makeHome();
  const raw = await openRawPty(home);
  try {
    const idle = await echoWhile(raw.channel, null);
    const results = {};
    for (const ownerIn of ['this', 'worker']) {
      const store = await HistoryStore.open({ file, ownerIn, ownerWorkerLocation, report: (message) => console.error(message) });
      try {
        // Both owners ready alike: the worker has built its index, and each has read the file once.
        await store.search({ query: 'kub', rank: 'relevance' });
        await store.search(DIGEST_SEARCH);
        results[ownerIn] = await echoWhile(raw.channel, store);
      } finally {
        await store.close();
      }
    }
    const idleS = summary(idle.samples);
    const here = summary(results.this.samples);
    const worker = summary(results.worker.samples);
    report.info('history: echo p95 idle (raw pty in this process)', idleS.p95, 'ms', fmt(idleS));
    report.info('history: echo p95 during digest searches, owner in this thread', here.p95, 'ms', `${fmt(here)}; ${results.this.searches} searches, ${(results.this.searchMs / results.this.searches).toFixed(0)} ms each: how the engine ran before issue 27`);
    report.delta({
      name: 'history: echo p95 during digest searches, owner in its thread',
      value: worker.p95,
      unit: 'ms',
      ref: idleS.p95,
      refName: 'idle p95',
      maxDelta: 2,
      note: `${fmt(worker)}; ${results.worker.searches} searches, ${(results.worker.searchMs / results.worker.searches).toFixed(0)} ms each, one after another while the keys were typed`,
    });
  } finally {
    raw.kill();
    home.cleanup();
  }
}

async function echoWhile(channel, store) {
  let running = true;
  let searches = 0;
  let searchMs = 0;
  const loop = (async () => {
    while (store && running) {
      const t0 = performance.now();
      const result = await store.search(DIGEST_SEARCH);
      if (!result.ok) throw new Error(result.error);
      searchMs += performance.now() - t0;
      searches++;
      // Let the event loop run between searches.
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  const samples = [];
  try {
    for (let i = 0; i < STALL_SAMPLES; i++) {
      if (i > 0 && i % 40 === 0) {
        channel.reset();
        channel.write('\x15');
        await channel.wait((out) => out.includes('\x1b[K'), 5_000, 'the cleared line');
      }
      const letter = 'abcdefghijklmnopqrstuvwxyz'[i % 26];
      channel.reset();
      const t0 = performance.now();
      channel.write(letter);
      samples.push((await channel.wait((out) => out.includes(letter), 10_000, `the echo of ${letter}`)) - t0);
      await sleep(5 + Math.random() * 10);
    }
  } finally {
    running = false;
    await loop;
  }
  return { samples, searches, searchMs };
}

/**
 * What recording costs the engine: two `tandem web`, one with `[history] enabled = false`, sampled
 * in turn. Echo: letters typed into a bash pane, and every 20 of them run as a command (`true
 * abc…`), so blocks finish and are recorded (digest, git lookup, batch written) while keys are
 * timed. Throughput: `cat` of a log through each, best of three.
 */
async function recordingCost(report) {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-bench-history-log-'));
  const engines = [];
  try {
    const log = writeLogFile(join(dir, 'history.log'), RECORDING_FILE_MB * MB);
    for (const on of [true, false]) engines.push(await engineWithHistory(on));
    const echo = { true: [], false: [] };
    for (let i = 0; i < RECORDING_SAMPLES; i++) {
      for (const engine of i % 2 === 0 ? engines : [...engines].reverse()) echo[engine.on].push(await engine.sample(i));
      await sleep(5 + Math.random() * 10);
    }
    const cat = { true: [], false: [] };
    for (let round = 0; round < 3; round++) for (const engine of round % 2 === 0 ? engines : [...engines].reverse()) cat[engine.on].push(await engine.cat(log.path));
    const blocks = engines[0].blocksFinished();
    const on = summary(echo.true);
    const off = summary(echo.false);
    report.compare({ name: 'history: echo p95, recording on / off', value: on.p95, unit: 'ms', ref: off.p95, refName: 'recording off p95', better: 'lower', target: 1.05, note: `on ${fmt(on)}; off ${fmt(off)}; ${blocks} blocks finished and recorded while sampling (a command every 20 keys)` });
    const rate = (ms) => RECORDING_FILE_MB / (ms / 1000);
    const onRate = rate(Math.min(...cat.true));
    const offRate = rate(Math.min(...cat.false));
    report.compare({ name: 'history: throughput, recording on / off', value: onRate, unit: 'MB/s', ref: offRate, refName: 'recording off', better: 'higher', target: 0.95, note: `cat of a ${RECORDING_FILE_MB} MB log in a pane, Node client, best of 3 each, alternating which goes first; the block is recorded (digest of its output) when it ends` });
  } finally {
    for (const engine of engines) await engine.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function engineWithHistory(on) {
  const tandem = await startTandem();
  const client = await EngineClient.connect(tandem);
  const events = [];
  client.onEvent = (event, payload) => events.push({ event, payload });
  await client.request('hello', {});
  if (!on) {
    const config = join(tandem.home, '.config/tandem/config.toml');
    writeFileSync(config, `${readFileSync(config, 'utf8')}\n[history]\nenabled = false\n`);
    await until(() => events.some(({ event, payload }) => event === 'settings.changed' && payload.settings.history.enabled === false), 15_000, 'the settings change');
  }
  const { paneId } = await client.request('pane.create', { cols: 120, rows: 40 });
  let tail = '';
  const channel = outputChannel((text) => client.type(paneId, text));
  client.onOutput = (_id, payload) => {
    const text = payload.toString('latin1');
    tail = (tail + text).slice(-256);
    channel.push(text);
  };
  await channel.wait(atPrompt, 20_000, 'the prompt');
  /** Runs what was typed (when `run`), then starts a new line `true `. */
  const newLine = async (run) => {
    if (run) {
      channel.reset();
      channel.write('\r');
      await channel.wait(atPrompt, 10_000, 'the prompt after the command');
    }
    channel.reset();
    channel.write('true ');
    await channel.wait((out) => out.includes('true '), 10_000, 'the start of a command line');
  };
  const sample = async (i) => {
    if (i % 20 === 0) await newLine(i > 0);
    const letter = 'abcdefghijklmnopqrstuvwxyz'[i % 26];
    channel.reset();
    const t0 = performance.now();
    channel.write(letter);
    return (await channel.wait((out) => out.includes(letter), 10_000, `the echo of ${letter}`)) - t0;
  };
  const cat = async (path) => {
    // What was typed runs first (a `true …` line): the log is a command of its own.
    channel.reset();
    channel.write('\r');
    await channel.wait(atPrompt, 10_000, 'the prompt');
    tail = '';
    const t0 = performance.now();
    channel.write(`cat ${path}; echo BENCH""-DONE\r`);
    const t1 = await channel.wait(() => tail.includes('BENCH-DONE\r\n'), 180_000, 'the end of the log');
    await channel.wait(() => atPrompt(tail), 20_000, 'the prompt after cat');
    return t1 - t0;
  };
  const blocksFinished = () => events.filter(({ event }) => event === 'block.finished').length;
  const stop = async () => {
    client.close();
    await tandem.stop();
  };
  return { on, sample, cat, blocksFinished, stop };
}

async function until(predicate, ms, what) {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
