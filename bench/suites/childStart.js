// Part of the agentcli suite: a child agent's start as its parent sees it. The bench listens on
// a Unix socket as a parent agent does (src/main/agent/children/childChannel.ts), answers the child's
// hello with a welcome, and starts
// `node bin/tandem.js agent --parent SOCKET -c '# hi'`:
//   - spawn → the child's `hello` line on the socket (it connected, before its engine and shell)
//   - spawn → its `session` event on the socket (its shell at the prompt; the first event of the
//     run's stream); limit: the standalone start limit (300 ms), as the child is the same program
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LineProcess } from '../lib/lineProcess.js';
import { text } from '../lib/modelStub.js';
import { summary } from '../lib/stats.js';

const fmt = (s) => `p50 ${s.p50.toFixed(1)} / p95 ${s.p95.toFixed(1)} / max ${s.max.toFixed(1)} ms (n=${s.n})`;

export async function childStartSamples(run, tandem, rounds) {
  const samples = { hello: [], session: [] };
  for (let round = -1; round < rounds; round++) {
    const one = await childStart(run, tandem, round);
    if (round < 0) continue;
    samples.hello.push(one.hello);
    samples.session.push(one.session);
  }
  return samples;
}

async function childStart(run, tandem, round) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-child-'));
  const path = join(dir, 'parent.sock');
  const seen = {};
  let startedAt = 0;
  let done;
  const finished = new Promise((resolve) => (done = resolve));
  const server = createServer((socket) => {
    socket.setEncoding('utf8');
    let pending = '';
    socket.on('data', (chunk) => {
      const at = performance.now();
      pending += chunk;
      let end;
      while ((end = pending.indexOf('\n')) >= 0) {
        const event = JSON.parse(pending.slice(0, end));
        pending = pending.slice(end + 1);
        seen[event.type] ??= at - startedAt;
        // A parent answers the hello with its welcome (no grants passed on here); the child waits for it.
        if (event.type === 'hello') socket.write('{"type":"welcome","grants":[]}\n');
        if (event.type === 'result') done();
      }
    });
  });
  await new Promise((resolve) => server.listen(path, resolve));
  run.stub.script(text(`Hello, child ${round}.`));
  const child = new LineProcess([tandem, 'agent', '--parent', path, '-c', '# hi'], { cwd: run.home, env: run.env });
  startedAt = child.startedAt;
  try {
    await Promise.race([finished, child.exitCode().then((code) => Promise.reject(new Error(`the child exited ${code} before its result: ${child.stderr.slice(-300)}`)))]);
    const code = await child.exitCode();
    if (code !== 0 || seen.hello === undefined || seen.session === undefined) throw new Error(`the child exited ${code}; saw ${JSON.stringify(seen)}`);
    return { hello: seen.hello, session: seen.session };
  } finally {
    child.kill();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function reportChildStarts(report, samples, limitMs) {
  const hello = summary(samples.hello);
  const session = summary(samples.session);
  report.absolute({
    name: 'agent cli: child agent start → first event (session on the parent socket), p50',
    value: session.p50,
    unit: 'ms',
    limit: limitMs,
    note: `${fmt(session)}; spawn of \`node bin/tandem.js agent --parent SOCKET -c '# hi'\` → its session event on the socket a parent listens on. Connected (hello line) ${fmt(hello)}`,
  });
}
