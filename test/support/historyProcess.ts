// A separate Tandem process using the block history, as the app, `tandem web` and headless
// agents do side by side: `node --import jiti/register test/support/historyProcess.ts MODE FILE …`.
//   writer FILE LABEL COUNT   prints `ready`, waits for a line on stdin, records COUNT blocks at
//                             once (one call each), prints one JSON line with the outcome, exits.
//   bulk FILE BATCH           records batches of BATCH large blocks until killed, printing
//                             `writing N` before and `committed N` after each batch.
//   steady FILE LABEL COUNT   records COUNT blocks one after another, printing `acked I OWNER`.
import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { HistoryStore } from '../../src/main/history/historyStore';

const [mode, file, ...rest] = process.argv.slice(2);
if (!mode || !file) throw new Error('usage: historyProcess.ts writer|bulk|steady FILE …');
const store = await HistoryStore.open({ file, report: (message) => process.stderr.write(`${message}\n`) });
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
    // The owner's own calls run synchronously: let its clients' requests in between batches.
    await nextTurn();
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
} else {
  throw new Error(`unknown mode ${mode}`);
}
