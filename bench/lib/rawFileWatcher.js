// The watchers suite's reference: @parcel/watcher alone, in a process of its own, subscribed
// to the folders given (the same ones, with the same ignore option, as Tandem's file_change
// trigger subscribes for the bench's watchers). It prints NDJSON: `{"type":"ready","ms"}`
// once every subscription is in place (ms: the subscribe calls themselves), then one
// `{"type":"events","paths":[…]}` per callback. With no folders it only says ready: the bare
// process, for memory. It lives until its stdin ends or SIGTERM.
//
//   node bench/lib/rawFileWatcher.js FOLDER...
import watcher from '@parcel/watcher';

/** What src/main/watchers/triggers/fileTrigger.ts passes parcel. */
const IGNORE = ['.git', 'node_modules', '**/.git', '**/node_modules'];

const print = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
const started = performance.now();
const subscriptions = await Promise.all(
  process.argv.slice(2).map((folder) =>
    watcher.subscribe(
      folder,
      (error, events) => {
        if (error) print({ type: 'error', message: error.message });
        else print({ type: 'events', paths: events.map((event) => event.path) });
      },
      { ignore: IGNORE },
    ),
  ),
);
print({ type: 'ready', ms: performance.now() - started });
const stop = async () => {
  await Promise.all(subscriptions.map((subscription) => subscription.unsubscribe()));
  process.exit(0);
};
process.once('SIGTERM', stop);
process.stdin.once('end', stop).resume();
