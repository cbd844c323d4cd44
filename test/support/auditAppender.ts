// A separate process appending to an audit log, as `tandem agent` does beside the app:
// `node --import jiti/register test/support/auditAppender.ts FILE HEAD COUNT LABEL`.
// It prints `ready` once loaded and starts when a line arrives on stdin, so several writers
// start together; at the end it prints one JSON line with the errors its AuditLog reported.
import { once } from 'node:events';
import { AuditLog } from '../../src/main/safety/audit/auditLog';

const [file, headFile, countText, label] = process.argv.slice(2);
if (!file || !headFile || !countText || !label) throw new Error('usage: auditAppender.ts FILE HEAD COUNT LABEL');
const count = Number(countText);

const errors: string[] = [];
const log = new AuditLog(file, headFile, { onError: (error) => errors.push(error.message) });

process.stdout.write('ready\n');
await once(process.stdin, 'data');
process.stdin.pause();

await Promise.all(Array.from({ length: count }, (_, i) => log.append({ event: 'executed', conversation: label, step: i + 1, command: `echo ${label} ${i + 1}`, exitCode: 0 })));
await log.flush();
process.stdout.write(`${JSON.stringify({ errors })}\n`);
