// A separate Tandem process using the block history, as the app, `tandem web` and headless
// agents do side by side: `node --import jiti/register test/support/historyProcess.ts MODE FILE …`.
//   writer FILE LABEL COUNT   prints `ready`, waits for a line on stdin, records COUNT blocks at
//                             once (one call each), prints one JSON line with the outcome, exits.
//   bulk FILE BATCH           records batches of BATCH large blocks until killed, printing
//                             `writing N` before and `committed N` after each batch.
//   steady FILE LABEL COUNT   records COUNT blocks one after another, printing `acked I OWNER`.
//   linger FILE               records a block and searches, prints `done OWNER`, and does not close
//                             the store: the process must still exit by itself.
import { once } from 'node:events';
import { HistoryStore } from '../../src/main/history/historyStore';
import { historyWorkerLocation } from './historyWorkerLocation';

const [mode, file, ...rest] = process.argv.slice(2);
if (!mode || !file) throw new Error('usage: historyProcess.ts writer|bulk|steady FILE …');
// As the engine does: the owner's database in a worker thread.
const store = await HistoryStore.open({ file, report: (message) => process.stderr.write(`${message}\n`), ownerIn: 'worker', ownerWorkerLocation: historyWorkerLocation() });
const block = (label: string, i: number, extra: object = {}) => ({ command: `echo ${label} ${i}`, host: 'test-host', session: label, startedAt: Date.now(), author: 'you' as const, exitCode: 0, ...extra });

if (mode === 'writer') {
  const [label, count] = [rest[0]!, Number(rest[1])];
  process.stdout.write(`ready ${store.isOwner}\n`);
  await once(process.stdin, 'data');
  process.stdin.pause();
  const results = await Promise.all(Array.from({ length: count }, (_, i) => store.record([block(label, i)])));
  const errors = results.flatMap((result) => (result.ok ? result.value.rejected.map((r) => r.reason) : [result.error]));
  const stored = results.reduce((sum, result) => sum + (result.ok ? result.value.stored : 0), 0);
  process.stdout.write(`${JSON.stringify({ errors, stored, owner: store.isOwner })}\n`);
  store.close();
} else if (mode === 'bulk') {
  const batch = Number(rest[0]);
  const output = 'x'.repeat(10_000);
  process.stdout.write(`owner ${store.isOwner}\n`);
  for (let n = 1; ; n++) {
    process.stdout.write(`writing ${n}\n`);
    const result = await store.record(Array.from({ length: batch }, (_, i) => block('bulk', n * batch + i, { output })));
    if (!result.ok) throw new Error(result.error);
    process.stdout.write(`committed ${n}\n`);
  }
} else if (mode === 'steady') {
  const [label, count] = [rest[0]!, Number(rest[1])];
  process.stdout.write(`ready ${store.isOwner}\n`);
  for (let i = 0; i < count; i++) {
    const result = await store.record([block(label, i)]);
    if (!result.ok) throw new Error(result.error);
    process.stdout.write(`acked ${i} ${store.isOwner}\n`);
  }
  store.close();
} else if (mode === 'linger') {
  const recorded = await store.record([block('linger', 0)]);
  const found = await store.search({ query: 'echo linger', rank: 'relevance' });
  if (!recorded.ok || !found.ok || found.value.length !== 1) throw new Error(JSON.stringify({ recorded, found }));
  process.stdout.write(`done ${store.isOwner}\n`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
