// 11. `tandem agent` as a program starts it: whole processes of the built CLI against the
// scripted model stub (lib/modelStub.js), every time on this process's clock.
//   - start → the `session` line of `tandem agent --json -c '# hi'` (stdin closed), with
//     `node -e 0` started the same way in the same rounds for scale; limit: the 300 ms
//   - start → its first `delta` line vs a bare @anthropic-ai/sdk process (lib/sdkFirstToken.js)
//     sending the agent's own request body of that round to the same stub; limit: +20 ms.
//     Where the agent's time goes is in the notes: Node's start, loading the modules (a process
//     that only imports the agent's chunk), the shell spawned (→ `session`; its first prompt is
//     not waited for), the request reaching the stub, the first token
//   - a child agent's start → its first event on the parent's socket (childStart.js)
//   - approval round trip over stdio: `--approve=stdio --input-format json`, the model proposes
//     one YELLOW `touch` per plan; the `approval` line written → the step's `started` line read,
//     against a Node process echoing a JSON line over the same kind of pipes
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LineProcess } from '../lib/lineProcess.js';
import { startModelStub, text, toolUse } from '../lib/modelStub.js';
import { measure } from '../lib/report.js';
import { ROOT } from '../lib/root.js';
import { summary } from '../lib/stats.js';
import { makeHome, requireBuild } from '../lib/tandem.js';
import { childStartSamples, reportChildStarts } from './childStart.js';

const ROUNDS = Number(process.env.BENCH_AGENTCLI_ROUNDS ?? 9);
const STEPS = Number(process.env.BENCH_AGENTCLI_STEPS ?? 20);
const WARMUP_STEPS = 2;
const START_LIMIT_MS = 300;
const FIRST_TOKEN_LIMIT_MS = 20;
const APPROVAL_LIMIT_MS = 10;
const MODEL = 'claude-sonnet-4-6';
const TANDEM = join(ROOT, 'bin/tandem.js');
const fmt = (s) => `p50 ${s.p50.toFixed(1)} / p95 ${s.p95.toFixed(1)} / max ${s.max.toFixed(1)} ms (n=${s.n})`;

export async function agentcli(report) {
  requireBuild('the agentcli rows');
  const home = makeHome();
  let stub;
  try {
    stub = await startModelStub();
    const env = { ...home.env, ANTHROPIC_BASE_URL: stub.url, ANTHROPIC_API_KEY: 'bench-stub-key', TANDEM_MODEL: MODEL };
    const run = { home: home.home, env, stub };
    const starts = await measure(report, 'agent cli: start', () => startSamples(run));
    if (starts) reportStarts(report, starts);
    const children = await measure(report, 'agent cli: child agent start', () => childStartSamples(run, TANDEM, ROUNDS));
    if (children) reportChildStarts(report, children, START_LIMIT_MS);
    const approvals = await measure(report, 'agent cli: approval round trip over stdio', () => approvalSamples(run));
    if (approvals) reportApprovals(report, approvals);
  } finally {
    await stub?.close();
    home.cleanup();
  }
}

// ── start → session, start → first token ──────────────────────────────────────────────

/** Rounds of: `node -e 0`, a process importing the agent's modules, the agent, the bare SDK. */
async function startSamples(run) {
  const chunks = join(ROOT, 'out/main/chunks');
  const agentChunk = readdirSync(chunks).find((name) => name.startsWith('agentCommand-'));
  if (!agentChunk) throw new Error(`no agentCommand-*.js in ${chunks}; rebuild (npm run build)`);
  const importModules = `await import(${JSON.stringify(pathToFileURL(join(chunks, agentChunk)).href)}); process.stdout.write('{"type":"loaded"}\\n'); process.exit(0);`;
  const requestFile = join(run.home, 'agent-request.json');
  const samples = { node: [], modules: [], session: [], request: [], firstToken: [], sdkRequest: [], sdkFirstToken: [] };
  for (let round = -1; round < ROUNDS; round++) {
    const node = await processTime(['-e', '0'], run);
    const modules = await modulesLoaded(importModules, run);
    const agent = await agentStart(run, round);
    writeFileSync(requestFile, agent.requestBody);
    const sdk = await sdkStart(run, requestFile, round);
    if (round < 0) continue;
    samples.node.push(node);
    samples.modules.push(modules);
    samples.session.push(agent.session);
    samples.request.push(agent.request);
    samples.firstToken.push(agent.firstToken);
    samples.sdkRequest.push(sdk.request);
    samples.sdkFirstToken.push(sdk.firstToken);
  }
  return samples;
}

/** Spawn → exit of `node ...args`, which must exit 0. */
async function processTime(args, run) {
  const child = new LineProcess(args, { cwd: run.home, env: run.env });
  const code = await child.exitCode();
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited ${code}: ${child.stderr.slice(-300)}`);
  return performance.now() - child.startedAt;
}

/** Spawn → the line a process prints once it has imported the agent's modules (its exit is not counted). */
async function modulesLoaded(importModules, run) {
  const child = new LineProcess(['--input-type=module', '-e', importModules], { cwd: run.home, env: run.env });
  const loaded = await child.waitForEvent((event) => event.type === 'loaded', 'the modules imported');
  const code = await child.exitCode();
  if (code !== 0) throw new Error(`importing the agent's modules exited ${code}: ${child.stderr.slice(-300)}`);
  return loaded.at - child.startedAt;
}

async function agentStart(run, round) {
  const { stub } = run;
  const answer = `Hello from the stub, round ${round}.`;
  const index = stub.requests.length + 1;
  stub.script(text(answer));
  const agent = new LineProcess([TANDEM, 'agent', '--json', '-c', '# hi'], { cwd: run.home, env: run.env });
  try {
    const session = await agent.waitForEvent((event) => event.type === 'session', 'the session line');
    const delta = await agent.waitForEvent((event) => event.type === 'delta', 'the first delta line');
    const result = await agent.waitForEvent((event) => event.type === 'result', 'the result line');
    const code = await agent.exitCode();
    if (code !== 0 || result.event.result !== answer) throw new Error(`tandem agent -c exited ${code} with result ${JSON.stringify(result.event).slice(0, 300)}`);
    const request = await stub.waitForRequest(index);
    return {
      session: session.at - agent.startedAt,
      request: request.arrivedAt - agent.startedAt,
      firstToken: delta.at - agent.startedAt,
      requestBody: request.rawBody,
    };
  } finally {
    agent.kill();
  }
}

async function sdkStart(run, requestFile, round) {
  const { stub } = run;
  const index = stub.requests.length + 1;
  stub.script(text(`Hello from the stub, round ${round}.`));
  const sdk = new LineProcess([join(ROOT, 'bench/lib/sdkFirstToken.js'), requestFile], { cwd: run.home, env: run.env });
  try {
    const delta = await sdk.waitForEvent((event) => event.type === 'delta', "the SDK process's first text");
    const code = await sdk.exitCode();
    if (code !== 0) throw new Error(`the SDK process exited ${code}: ${sdk.stderr.slice(-300)}`);
    const request = await stub.waitForRequest(index);
    return { request: request.arrivedAt - sdk.startedAt, firstToken: delta.at - sdk.startedAt };
  } finally {
    sdk.kill();
  }
}

function reportStarts(report, samples) {
  const s = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, summary(values)]));
  report.absolute({
    name: 'agent cli: start → session event, p50',
    value: s.session.p50,
    unit: 'ms',
    limit: START_LIMIT_MS,
    note:
      `${fmt(s.session)}; spawn of \`node bin/tandem.js agent --json -c '# hi'\` (stdin closed) → its session line. ` +
      `For scale: node -e 0 ${fmt(s.node)}; a process importing the agent's modules, until it says so ${fmt(s.modules)}`,
  });
  report.delta({
    name: 'agent cli: start → first token, p50',
    value: s.firstToken.p50,
    unit: 'ms',
    ref: s.sdkFirstToken.p50,
    refName: 'bare SDK process p50',
    maxDelta: FIRST_TOKEN_LIMIT_MS,
    note:
      `agent ${fmt(s.firstToken)} (spawn → first delta line); bare SDK ${fmt(s.sdkFirstToken)} (spawn of bench/lib/sdkFirstToken.js replaying the agent's request body → its first text). ` +
      `p50 timeline of the agent: node up ~${s.node.p50.toFixed(0)}, modules loaded ~${s.modules.p50.toFixed(0)}, session (shell spawned) ${s.session.p50.toFixed(0)}, ` +
      `request at the stub ${s.request.p50.toFixed(0)}, first token ${s.firstToken.p50.toFixed(0)}; of the SDK: request at the stub ${s.sdkRequest.p50.toFixed(0)}, first token ${s.sdkFirstToken.p50.toFixed(0)}`,
  });
  report.info(
    'agent cli: session → request at the model, p50',
    summary(samples.request.map((at, i) => at - samples.session[i])).p50,
    'ms',
    'the instruction line, the standing context and the request body built, the SDK connecting; part of the first-token row',
  );
}

// ── approval round trip over stdio ────────────────────────────────────────────────────

/**
 * One agent process approves STEPS (+2 warm-up) YELLOW steps over stdio, one plan each:
 * `approval` written → that step's `started` line read. After each, a JSON line makes the
 * same trip through a Node process that only echoes it (the limit's reference).
 */
async function approvalSamples(run) {
  const { stub } = run;
  const total = STEPS + WARMUP_STEPS;
  for (let i = 0; i < total; i++) stub.script(toolUse('run_command', { command: `touch bench-file-${i}`, purpose: `create bench file ${i}` }));
  stub.script(text('All bench files are there.'));
  const echo = new LineProcess(['-e', ECHO_LINES], { cwd: run.home, env: run.env, stdin: 'pipe' });
  const args = [TANDEM, 'agent', '--json', '--approve=stdio', '--input-format', 'json', '-c', '# create the bench files'];
  const agent = new LineProcess(args, { cwd: run.home, env: run.env, stdin: 'pipe' });
  const roundTrip = [];
  const pipeEcho = [];
  try {
    let from = 0;
    for (let i = 0; i < total; i++) {
      const command = `touch bench-file-${i}`;
      const request = await agent.waitForEvent((event) => event.type === 'approval_request' && event.command === command, `the approval request for ${command}`, { from });
      const sentAt = agent.send({ type: 'approval', id: request.event.id, decision: 'allow' });
      const isStep = (phase) => (event) => event.type === 'step' && event.phase === phase && event.step_id === request.event.step_id && event.plan_id === request.event.plan_id;
      const started = await agent.waitForEvent(isStep('started'), `${command} started`, { from: request.index });
      const finished = await agent.waitForEvent(isStep('finished'), `${command} finished`, { from: started.index });
      if (finished.event.status !== 'done') throw new Error(`${command} ended ${finished.event.status}: ${JSON.stringify(finished.event).slice(0, 300)}`);
      from = finished.index + 1;

      const echoFrom = echo.lines.length;
      const echoSentAt = echo.send({ type: 'approval', id: `echo-${i}`, decision: 'allow' });
      const echoed = await echo.waitForEvent((event) => event.id === `echo-${i}`, `the echo of line ${i}`, { from: echoFrom });
      if (i < WARMUP_STEPS) continue;
      roundTrip.push(started.at - sentAt);
      pipeEcho.push(echoed.at - echoSentAt);
    }
    await agent.waitForEvent((event) => event.type === 'message' && event.text === 'All bench files are there.', 'the final answer', { from });
    agent.child.stdin.end();
    const result = await agent.waitForEvent((event) => event.type === 'result', 'the result line', { from });
    const code = await agent.exitCode();
    if (code !== 0) throw new Error(`tandem agent --approve=stdio exited ${code}: ${JSON.stringify(result.event).slice(0, 300)}`);
    return { roundTrip, pipeEcho };
  } finally {
    agent.kill();
    echo.kill();
  }
}

/** A Node process that answers each JSON line on stdin with the line's parsed-and-printed self. */
const ECHO_LINES = `const rl = require('node:readline').createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => process.stdout.write(JSON.stringify(JSON.parse(line)) + '\\n'));`;

function reportApprovals(report, { roundTrip, pipeEcho }) {
  const trip = summary(roundTrip);
  const echo = summary(pipeEcho);
  report.delta({
    name: 'agent cli: approval → step started over stdio, p95',
    value: trip.p95,
    unit: 'ms',
    ref: echo.p95,
    refName: 'Node pipe echo p95',
    maxDelta: APPROVAL_LIMIT_MS,
    note:
      `${fmt(trip)}; --approve=stdio --input-format json, a YELLOW \`touch\` per plan: the approval line written → the step's started line read. ` +
      `Reference: ${fmt(echo)}, a JSON line through a Node process that parses and prints it back, interleaved`,
  });
}
