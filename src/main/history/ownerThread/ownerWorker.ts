import { parentPort, workerData } from 'node:worker_threads';
import { HistoryOwner } from '../historyOwner';
import type { FromOwnerThread, OwnerThreadData, ToOwnerThread } from './ownerThreadMessages';

// The history owner thread: the database and the socket other processes reach it on live here,
// so that no SQL (a digest search takes hundreds of milliseconds at 100k records) ever runs on
// the engine's event loop, which carries every keystroke and output chunk.
if (!parentPort) throw new Error('ownerWorker.ts runs as a worker thread');
const port = parentPort;
const post = (message: FromOwnerThread) => port.postMessage(message);
const data = workerData as OwnerThreadData;

let owner: HistoryOwner | null = null;
try {
  owner = await HistoryOwner.start({ ...data, report: (message) => post({ kind: 'report', message }), prepareIndex: true });
} catch (error) {
  post({ kind: 'elected', owner: false, error: (error as Error).message });
  process.exit(0);
}
if (!owner) {
  post({ kind: 'elected', owner: false });
  process.exit(0);
}
const elected = owner;
post({ kind: 'elected', owner: true });
port.on('message', (message: ToOwnerThread) => {
  if (message.kind === 'call') {
    post({ kind: 'result', id: message.id, result: elected.handle(message.op, message.args) });
    return;
  }
  // The file is closed before the address is let go (historyOwner.ts), then the thread ends.
  elected.close();
  process.exit(0);
});
