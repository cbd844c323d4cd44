// A one-off measurement of the block history store (not run in CI): 100,000 generated records,
// then search as you type, size and open times. Run it alone on a quiet machine:
//   node --import jiti/register scripts/benchHistoryStore.ts [RECORDS]
// The numbers are in docs/architecture.md ("Block history store").
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { HistoryDatabase } from '../src/main/history/historyDatabase';
import type { BlockRecord } from '../src/main/history/historyRecord';
import { HistoryStore } from '../src/main/history/historyStore';
import type { ParsedSearchQuery } from '../src/main/history/historySearch';
import { MIGRATIONS } from '../src/main/history/schema';
import { sqlite } from '../src/main/history/sqliteModule';

const RECORDS = Number(process.argv[2] ?? 100_000);
const BATCH = 1000;
const ROUNDS = 40;

const programs = ['git', 'npm', 'docker', 'kubectl', 'cargo', 'ls', 'grep', 'ssh', 'make', 'node', 'python3', 'curl', 'rsync', 'tar', 'find', 'vim', 'cd', 'jq', 'psql', 'terraform'];
const args = ['status', 'install', 'run build', 'ps -a', 'logs -f web', 'test --release', '-la', '-rn TODO src', 'deploy@host', 'clean', 'bench/run.js', '-m http.server', 'https://example.invalid/api/v1', 'xzf pkg.tgz', '. -name *.ts', 'commit -m "fix parser"', 'apply -auto-approve', '.items[] | .name', '-c "select 1"', 'checkout -b feature/x'];
const authors = ['you', 'you', 'you', 'agent-step', 'auto-run', 'child-agent'] as const;
let seed = 7;
const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % n;
const hex = () => random(0xffffff).toString(16);

function generated(i: number): BlockRecord {
  const failed = random(10) === 0;
  return {
    command: `${programs[random(programs.length)]} ${args[random(args.length)]} ${hex()}${random(3) ? '' : ` src/${hex()}.ts`}`,
    cwd: `/home/user/project${random(200)}`,
    repoRoot: `/home/user/project${random(200)}`,
    host: random(5) ? 'laptop' : 'build-server',
    shell: 'bash',
    pane: `pane-${random(8)}`,
    session: `session-${Math.floor(i / 50)}`,
    startedAt: 1_700_000_000_000 + i * 60_000,
    endedAt: 1_700_000_000_000 + i * 60_000 + 1500,
    durationMs: 1500,
    exitCode: failed ? 1 : 0,
    author: authors[random(authors.length)]!,
    outputDigest: `first line of output ${hex()}\n…\nlast line ${hex()}${failed ? `\nerror: something failed in ${hex()}` : ''}`,
  };
}

function p(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function time<T>(work: () => T): [T, number] {
  const start = performance.now();
  const value = work();
  return [value, performance.now() - start];
}

const dir = mkdtempSync(join(tmpdir(), 'tandem-history-bench-'));
const file = join(dir, 'history.sqlite');
try {
  const [, moduleMs] = time(() => sqlite());
  let db = HistoryDatabase.open(file, console.error);
  const [, writeMs] = time(() => {
    for (let i = 0; i < RECORDS; i += BATCH) db.record(Array.from({ length: Math.min(BATCH, RECORDS - i) }, (_, j) => generated(i + j)));
  });
  db.close();
  const bytes = statSync(file).size;
  const [checked, checkedOpenMs] = time(() => HistoryDatabase.open(file, console.error, MIGRATIONS, true));
  checked.close();
  const [reopened, openMs] = time(() => HistoryDatabase.open(file, console.error));
  db = reopened;
  const [, firstSearchMs] = time(() => db.search({ query: 'kubectl logs' }));

  const typed = 'kubectl logs';
  const cases: [string, ParsedSearchQuery][] = [
    ...[...typed].map((_, n): [string, ParsedSearchQuery] => [`typing "${typed.slice(0, n + 1)}"`, { query: typed.slice(0, n + 1) }]),
    ['3 chars "ctl" + failed', { query: 'ctl', failed: true }],
    ['3 chars "ctl" + cwd', { query: 'ctl', cwd: '/home/user/project7' }],
    ['12 chars, no hit "zzzzzzzzzzzz"', { query: 'zzzzzzzzzzzz' }],
    ['2 chars, no hit "zq" (full LIKE scan)', { query: 'zq' }],
    ['no text, failed only', { failed: true }],
    ['digest too, 5 chars "error"', { query: 'error', fields: 'all' }],
  ];
  const samples = cases.map(() => [] as number[]);
  const hits: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    cases.forEach(([, query], c) => {
      const [found, ms] = time(() => db.search(query));
      samples[c]!.push(ms);
      hits[c] = found.length;
    });
  }
  const [, neighboursMs] = time(() => db.neighbours(RECORDS / 2, 10));
  const [, statsMs] = time(() => db.stats());
  const [, optimizeMs] = process.env.BENCH_KEEP ? [0, 0] : time(() => db.reclaim());
  db.close();

  // The same searches from a client process's side: NDJSON over the owner's socket (here both
  // ends are in this process, so the owner's work and the client's parsing share one thread).
  const owner = await HistoryStore.open({ file });
  const client = await HistoryStore.open({ file });
  const overSocket: Record<string, number[]> = { kub: [], 'kubectl logs': [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [query, samples] of Object.entries(overSocket)) {
      const start = performance.now();
      const result = await client.search({ query });
      if (!result.ok || result.value.length !== 50) throw new Error(`client search failed: ${JSON.stringify(result).slice(0, 200)}`);
      samples.push(performance.now() - start);
    }
  }
  client.close();
  owner.close();

  console.log(`node ${process.version}, ${RECORDS} records, batches of ${BATCH}`);
  console.log(`module load (WASM compile): ${moduleMs.toFixed(0)} ms`);
  console.log(`write: ${(writeMs / 1000).toFixed(1)} s (${((writeMs / RECORDS) * BATCH).toFixed(1)} ms a batch of ${BATCH})`);
  console.log(`file: ${(bytes / 1048576).toFixed(1)} MiB (${(bytes / RECORDS).toFixed(0)} bytes a record)`);
  console.log(`open after a clean close: ${openMs.toFixed(1)} ms; after a crash (every page checked): ${checkedOpenMs.toFixed(0)} ms; first search after open: ${firstSearchMs.toFixed(1)} ms`);
  console.log(`neighbours ±10: ${neighboursMs.toFixed(1)} ms; stats: ${statsMs.toFixed(1)} ms; FTS optimize (retention): ${optimizeMs.toFixed(0)} ms`);
  console.log(`search, newest 50, ${ROUNDS} rounds: p50 / p95 ms (hits)`);
  cases.forEach(([label], c) => {
    const sorted = samples[c]!.sort((a, b) => a - b);
    console.log(`  ${label.padEnd(40)} ${p(sorted, 0.5).toFixed(2).padStart(7)} ${p(sorted, 0.95).toFixed(2).padStart(7)}  (${hits[c]})`);
  });
  for (const [query, samples] of Object.entries(overSocket)) {
    const sorted = samples.sort((a, b) => a - b);
    console.log(`  ${`client over the socket "${query}"`.padEnd(40)} ${p(sorted, 0.5).toFixed(2).padStart(7)} ${p(sorted, 0.95).toFixed(2).padStart(7)}  (50)`);
  }
} finally {
  if (process.env.BENCH_KEEP) console.log(`kept ${file}`);
  else rmSync(dir, { recursive: true, force: true });
}
