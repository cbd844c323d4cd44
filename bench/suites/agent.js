// 5. The agent, against a scripted model (lib/modelStub.js) on 127.0.0.1, driven over the
// engine's WebSocket by a Node client (no UI). Everything is timed on this process's clock:
// the client's frames and events and the stub's requests alike.
//   - approve → the step's command echoed in the pane, vs the same line typed into a raw pty,
//     and that time split into the engine's hops by its latency marks
//   - the step's OSC 133 D mark seen by the client → the tool result reaching the model
//   - time to first token through the agent vs a direct SDK call to the same stub
//   - the standing context's size after 50 commands vs the last 200 lines of raw output
import Anthropic from '@anthropic-ai/sdk';
import { Watch } from '../lib/agentWatch.js';
import { EngineClient, atPrompt } from '../lib/engineClient.js';
import { startModelStub, text, toolUse } from '../lib/modelStub.js';
import { latencyMarksFile } from '../lib/latencyMarks.js';
import { openRawPty } from '../lib/nodeEcho.js';
import { measure } from '../lib/report.js';
import { reportRunQueue } from '../lib/runQueue.js';
import { sleep, summary } from '../lib/stats.js';
import { makeHome, startTandem } from '../lib/tandem.js';

/** 60: the p95 of 20 samples was their second largest, so one late approval moved a row by milliseconds. */
const REPETITIONS = Number(process.env.BENCH_AGENT_REPS ?? 60);
const WARMUP = 2;
/**
 * Approvals before the measured ones: a fresh engine's first approvals wait for V8 to compile
 * the output path on a background thread (docs/architecture.md, "Baseline code on first
 * call"), a cost paid once per engine; they have an info row of their own.
 */
const STEP_WARMUP = 10;
/**
 * A model name the engine's catalog knows (context window, price), so nothing falls back to
 * defaults, and one the SDK does not print a deprecation warning for on every request.
 */
const MODEL = 'claude-sonnet-4-6';
const D_MARK = '\x1b]133;D;';
const fmt = (s) => `p50 ${s.p50.toFixed(2)} / p95 ${s.p95.toFixed(2)} / max ${s.max.toFixed(1)} ms (n=${s.n})`;
const tokens = (chars) => Math.ceil(chars / 4);

export async function agent(report) {
  const home = makeHome();
  const marks = latencyMarksFile();
  let stub;
  let tandem;
  let client;
  let raw;
  let steps;
  try {
    stub = await startModelStub();
    tandem = await startTandem({ env: { ANTHROPIC_BASE_URL: stub.url, ANTHROPIC_API_KEY: 'bench-stub-key', TANDEM_MODEL: MODEL, ...marks.env } });
    client = await EngineClient.connect(tandem);
    const watch = new Watch(client);
    await client.request('hello', {});
    const { paneId } = await client.request('pane.create', { cols: 120, rows: 40 });
    await watch.until(() => watch.atPrompt(paneId), 20_000, 'the first prompt');
    const view = await client.request('agent.state', {});
    if (view.setupHint) throw new Error(`the agent sees no model: ${view.setupHint}`);
    raw = await openRawPty(home);

    steps = await measure(report, 'agent: approve → command in the shell', () => stepSamples(watch, stub, raw.channel, paneId));
    const ttft = await measure(report, 'agent: time to first token', () => firstTokenSamples(watch, stub, paneId));
    if (ttft) reportFirstToken(report, ttft);
    const context = await measure(report, 'agent: standing context size', () => standingContext(watch, stub, client));
    if (context) reportContext(report, context);
  } finally {
    raw?.kill();
    client?.close();
    await tandem?.stop();
    await stub?.close();
    home.cleanup();
  }
  // The engine writes its marks as it exits.
  if (steps) await measure(report, 'agent: approve → command echoed', () => reportSteps(report, steps, marks.read()));
  marks.cleanup();
}

// ── 1 + 2: a plan step, approved ──────────────────────────────────────────────────────

/**
 * Per repetition: the model proposes `echo bench-<i>`; once the plan waits for approval the
 * bench approves it (t0) and waits for the command's echo in the pane, the block's D mark and
 * the follow-up request with the tool result. A line of the same shape typed into a raw pty
 * bash is the limit, sampled right before the approval or right after the step, in turn.
 */
async function stepSamples(watch, stub, rawChannel, paneId) {
  await freshConversation(watch, stub);
  const approveToEcho = [];
  const rawEcho = [];
  const markToModel = [];
  /** Per measured step: its index among all approvals, and where its echo ends in the pane's stream. */
  const echoes = [];
  const firstApprovals = [];
  for (let i = 0; i < REPETITIONS + STEP_WARMUP; i++) {
    const command = `echo bench-${i}`;
    const first = stub.requests.length + 1;
    stub.script(toolUse('run_command', { command, purpose: 'bench step' }), text(`Step ${i} ran.`));
    await watch.client.request('agent.send', { text: `Please run ${command}`, attachments: [], paneId });
    const step = await watch.until(() => proposedStep(watch.view, command), 10_000, `step ${i} waiting for approval`);
    const rawFirst = i % 2 === 1;
    const rawSample = rawFirst ? await rawLine(rawChannel, i) : undefined;
    // Let the engine finish emitting the plan before the clock starts.
    await sleep(20);

    const from = watch.output(paneId).text.length;
    const echoed = watch.until(() => watch.find(paneId, command, from), 10_000, `the echo of ${command}`);
    const t0 = performance.now();
    await watch.client.request('agent.step', { planId: step.planId, stepId: step.stepId, action: 'approve' });
    const echo = await echoed;
    const mark = await watch.until(() => watch.find(paneId, D_MARK, echo.index), 10_000, `the D mark of ${command}`);
    const followUp = await stub.waitForRequest(first + 1);
    const toolResult = lastToolResult(followUp.body);
    if (!toolResult?.content?.includes?.(`bench-${i}`)) {
      throw new Error(`request ${followUp.index} does not carry the tool result of ${command}: ${JSON.stringify(toolResult).slice(0, 200)}`);
    }
    await watch.until(() => watch.idleAfter(`Step ${i} ran.`) && watch.atPrompt(paneId), 10_000, `the agent idle after step ${i}`);
    // Either line starts after a pause: the approval 20 ms after the plan, the raw line 20 ms after the step.
    const raw = rawSample ?? (await sleep(20).then(() => rawLine(rawChannel, i)));

    if (i < STEP_WARMUP) {
      firstApprovals.push(echo.at - t0);
      continue;
    }
    approveToEcho.push(echo.at - t0);
    echoes.push({ approval: i, end: echo.byteEnd, markEnd: mark.byteEnd });
    rawEcho.push(raw);
    markToModel.push(followUp.receivedAt - mark.at);
    await sleep(20 + Math.random() * 20);
  }
  return { approveToEcho, rawEcho, markToModel, echoes, paneId, firstApprovals };
}

/**
 * The raw limit: the same kind of line, written to a bash in node-pty in one write, as the
 * engine types a step (command + CR), until readline has echoed it (ms); then its prompt.
 */
async function rawLine(rawChannel, i) {
  rawChannel.reset();
  const r0 = performance.now();
  rawChannel.write(`echo raw-${i}\r`);
  const r1 = await rawChannel.wait((out) => out.includes(`echo raw-${i}`), 5_000, `the raw echo of line ${i}`);
  await rawChannel.wait(atPrompt, 5_000, 'the raw prompt');
  return r1 - r0;
}

function reportSteps(report, { approveToEcho, rawEcho, markToModel, echoes, paneId, firstApprovals }, marks) {
  const approve = summary(approveToEcho);
  const limit = summary(rawEcho);
  const hops = stepHops(marks, paneId, echoes);
  report.delta({
    name: 'agent: approve → command echoed, p95',
    value: approve.p95,
    unit: 'ms',
    ref: limit.p95,
    refName: 'raw pty p95',
    maxDelta: 1,
    note:
      `${fmt(approve)}; agent.step approve sent → the pane's Output frames hold the typed command's echo. ` +
      `Raw: ${fmt(limit)}, the same kind of line written to a bash in node-pty until its echo is read, right before the approval or right after the step, in turn ` +
      `(${REPETITIONS} approvals after ${STEP_WARMUP} warm-ups — 2 until 2026-11-30; 20 approvals before 2026-11-29, when the raw line always came after the step)`,
  });
  const first = summary(firstApprovals);
  report.info(
    "agent: a fresh engine's first approvals → echo, p95",
    first.p95,
    'ms',
    `${fmt(first)}; the ${STEP_WARMUP} approvals before the row above, the first ones since the engine started: V8 compiles the approval's and the output's paths on a background thread meanwhile, once per engine`,
  );
  const toLine = summary(hops.toLine);
  report.absolute({
    name: 'agent: approve received → line in the pty, p95',
    value: toLine.p95,
    unit: 'ms',
    limit: 1,
    note: `${fmt(toLine)}; the engine's marks: the agent.step request read from the WebSocket (before it is parsed) → the step's line written to the pty (the request checked, the plan's state, the step runner, the line; the step's environment file, the look at Tandem's own files and Enter follow its echo)`,
  });
  const toEcho = summary(hops.toEcho);
  report.delta({
    name: 'agent: line in the pty → echo read, p95',
    value: toEcho.p95,
    unit: 'ms',
    ref: limit.p95,
    refName: 'raw pty p95',
    maxDelta: 1,
    note:
      `${fmt(toEcho)}; the engine's marks: the line written → the pty read that holds its echo. The shell's own time, plus whatever holds the engine's ` +
      `main thread meanwhile (nothing: the panel's update, the audit lines, the trace and the request's answer wait for the echo)`,
  });
  const toFrame = summary(hops.toFrame);
  report.absolute({
    name: 'agent: echo read → Output frame sent, p95',
    value: toFrame.p95,
    unit: 'ms',
    limit: 0.5,
    note: `${fmt(toFrame)}; the engine's marks: the pty read that holds the echo → the Output frame that carries it handed to the WebSocket (marks, mirror, batcher)`,
  });
  reportRunQueue(report, 'agent: echo read → Output frame sent', hops.toFrame, hops.frameQueued);
  const outside = summary(approveToEcho.map((sample, i) => sample - hops.toLine[i] - hops.toEcho[i] - hops.toFrame[i]));
  report.info(
    'agent: the WebSocket both ways, p50',
    outside.p50,
    'ms',
    `${fmt(outside)}; each approval minus the three hops above: the client's request, the engine reading it, the Output frame to the client and its read (waking idle processes included)`,
  );
  const markFrame = summary(hops.markToFrame);
  report.info(
    "agent: step's D mark read → Output frame sent, p95",
    markFrame.p95,
    'ms',
    `${fmt(markFrame)}; the engine's marks: the pty read holding the step block's OSC 133 D mark → the Output frame carrying it (the block's end, the prompt's marks; the pane's watchers — the step runner, history, hints — hear of them after this frame)`,
  );
  const enterToMark = summary(hops.enterToMark);
  report.info(
    "agent: step's Enter → its D mark read, p50",
    enterToMark.p50,
    'ms',
    `${fmt(enterToMark)}; the engine's marks: Enter written to the pty → the pty read holding the step block's OSC 133 D mark: the shell integration's work around the command (its environment file read and emptied, the C and D marks, the prompt) and \`echo\` itself. The integration removed the file with \`rm\` until 2026-11-30 (a fork and an exec per step, about 2 ms here)`,
  );
  const mark = summary(markToModel);
  report.absolute({
    name: "agent: step's D mark → tool result at model, p95",
    value: mark.p95,
    unit: 'ms',
    limit: 20,
    note: `${fmt(mark)}; the client reads the block's OSC 133 D mark → the model stub has read the request carrying the tool_result (both clocks in the bench process)`,
  });
}

/** Each measured step's hops inside the engine, from its latency marks (ms). */
function stepHops(marks, paneId, echoes) {
  const decisions = marks.all('step-decision');
  const lines = marks.all('step-line-written', paneId);
  const enters = marks.all('step-enter-written', paneId);
  const hops = { toLine: [], toEcho: [], toFrame: [], frameQueued: [], markToFrame: [], enterToMark: [] };
  for (const { approval, end, markEnd } of echoes) {
    const decision = decisions[approval];
    const line = lines[approval];
    if (!decision || !line) throw new Error(`the engine's marks lack approval ${approval} (${decisions.length} decisions, ${lines.length} lines typed)`);
    const { readAt, toFrame, queued } = marks.outputHop(paneId, end);
    hops.toLine.push(line.at - decision.at);
    hops.toEcho.push(readAt - line.at);
    hops.toFrame.push(toFrame);
    if (queued !== undefined) hops.frameQueued.push(queued);
    const markHop = marks.outputHop(paneId, markEnd);
    hops.markToFrame.push(markHop.toFrame);
    if (enters[approval]) hops.enterToMark.push(markHop.readAt - enters[approval].at);
  }
  return hops;
}

// ── 3: time to first token ────────────────────────────────────────────────────────────

/**
 * Alternates the agent (agent.send → first agent.delta event) with a direct SDK stream from
 * this process (messages.stream → first `text` event) that replays the agent's own last
 * request body, so both ask the stub the same thing and the difference is the agent's work.
 */
async function firstTokenSamples(watch, stub, paneId) {
  await freshConversation(watch, stub);
  const sdk = new Anthropic({ apiKey: 'bench-stub-key', baseURL: stub.url, maxRetries: 0, logLevel: 'off' });
  const viaAgent = [];
  const direct = [];
  for (let i = 0; i < REPETITIONS + WARMUP; i++) {
    const answer = `Answer ${i} from the stub.`;
    stub.script(text(answer));
    const before = watch.deltas.length;
    const requestIndex = stub.requests.length + 1;
    const t0 = performance.now();
    const sent = watch.client.request('agent.send', { text: `Question ${i}?`, attachments: [], paneId });
    const first = await watch.until(() => watch.deltas[before], 10_000, `the first agent.delta of answer ${i}`);
    await sent;
    await watch.until(() => watch.idleAfter(answer), 10_000, `the agent idle after answer ${i}`);
    const { model, system, messages, tools, max_tokens } = (await stub.waitForRequest(requestIndex)).body;

    stub.script(text(answer));
    const d0 = performance.now();
    const stream = sdk.messages.stream({ model, system, messages, tools, max_tokens });
    let d1;
    stream.on('text', () => (d1 ??= performance.now()));
    await stream.finalMessage();
    if (d1 === undefined) throw new Error('the direct SDK stream had no text event');

    if (i < WARMUP) continue;
    viaAgent.push(first.at - t0);
    direct.push(d1 - d0);
    await sleep(20 + Math.random() * 20);
  }
  return { viaAgent, direct };
}

function reportFirstToken(report, { viaAgent, direct }) {
  const a = summary(viaAgent);
  const d = summary(direct);
  const ratio = (p) => `ratio ${(a[p] / d[p]).toFixed(2)}x`;
  report.delta({
    name: 'agent: time to first token, p50',
    value: a.p50,
    unit: 'ms',
    ref: d.p50,
    refName: 'direct SDK p50',
    maxDelta: 10,
    note:
      `${ratio('p50')}. Agent: ${fmt(a)}, agent.send → first agent.delta on the WebSocket. ` +
      `Direct: ${fmt(d)}, @anthropic-ai/sdk messages.stream from the bench → first text event, replaying the agent's request body; same stub, interleaved`,
  });
  report.delta({ name: 'agent: time to first token, p95', value: a.p95, unit: 'ms', ref: d.p95, refName: 'direct SDK p95', maxDelta: 20, note: `${ratio('p95')}; as the p50 row` });
}

// ── 4: standing context ───────────────────────────────────────────────────────────────

/** A long command printing log lines of a realistic width (~100 characters), `n` of them. */
const log = (n) => `seq 1 ${n} | sed 's|.*|2026-11-26T06:00:00.&Z INFO api-worker[&] GET /api/v1/items/& status=200 bytes=5120 took=12ms|'`;

/** Short ones, failing ones and long ones (thousands of log lines), as a working session has them. */
const SESSION = [
  'echo hello', 'pwd', 'ls -la', 'true', log(5000), 'date', 'false', 'echo $HOME', 'uname -a', 'cat /nonexistent',
  'printf "a\\nb\\nc\\n"', 'id', log(3000), 'echo done', 'ls /nonexistent-dir', 'whoami', 'env | wc -l', 'true', 'echo one two', 'history | tail -3',
  log(8000), 'pwd', 'grep -c x /dev/null', 'echo $SHELL', 'test -d /tmp', 'ls /', 'date +%s', 'sh -c "exit 3"', 'echo ok', log(2000),
  'true', 'echo a b c', 'printf "%s\\n" x y z', 'hostname', 'ls ~', 'echo $PWD', log(6000), 'false', 'echo the end is near', 'wc -l /etc/passwd',
  'pwd', 'echo $((6 * 7))', 'cd /tmp', 'ls -d /tmp', 'cd ~', log(4000), 'echo almost', 'cat /etc/hostname', 'echo last-but-one', 'echo last',
];

/**
 * A fresh conversation in a second pane: runs SESSION there (typed by the client), then one
 * message, and returns the body the model received and the pane's whole output.
 */
async function standingContext(watch, stub, client) {
  await freshConversation(watch, stub);
  const { paneId } = await client.request('pane.create', { cols: 120, rows: 40 });
  await watch.until(() => watch.atPrompt(paneId), 20_000, 'the prompt of the second pane');
  for (const command of SESSION) {
    const from = watch.output(paneId).text.length;
    client.type(paneId, `${command}\r`);
    await watch.until(() => watch.find(paneId, D_MARK, from) && watch.atPrompt(paneId), 20_000, `\`${command}\` to finish`);
  }
  const blocks = await client.request('pane.blocks', { paneId });
  const answer = 'Context received.';
  stub.script(text(answer));
  const index = stub.requests.length + 1;
  await client.request('agent.send', { text: 'What happened in this terminal?', attachments: [], paneId });
  const request = await stub.waitForRequest(index);
  await watch.until(() => watch.idleAfter(answer), 10_000, 'the agent idle after the context request');
  return { request, output: watch.output(paneId).text, paneId, blocks: blocks.length, agentEstimate: watch.view.usage?.contextTokens };
}

function reportContext(report, { request, output, paneId, blocks, agentEstimate }) {
  const system = typeof request.body.system === 'string' ? request.body.system : (request.body.system ?? []).map((part) => part.text ?? '').join('\n');
  if (!system.includes(`pane ${paneId}`)) throw new Error(`the request's system prompt does not describe pane ${paneId}`);
  const lines = stripAnsi(output).split('\n');
  const naive = lines.slice(-200).join('\n');
  const naiveTokens = tokens(naive.length);
  const systemTokens = tokens(system.length);
  // The standing instructions come first; the pane's part (environment line, block index) starts at "Environment:".
  const split = system.lastIndexOf('\n\nEnvironment:');
  const paneTokens = split >= 0 ? tokens(system.length - split - 2) : undefined;
  const splitNote = paneTokens === undefined ? '' : `: ${systemTokens - paneTokens} of fixed instructions + ${paneTokens} for the pane (environment, block index; ${(paneTokens / naiveTokens).toFixed(2)}x the naive tail)`;
  report.compare({
    name: 'agent: standing context (system) tokens',
    value: systemTokens,
    unit: 'tok',
    ref: naiveTokens,
    refName: 'last 200 lines',
    better: 'lower',
    target: 1,
    note:
      `the request's system prompt after ${SESSION.length} commands (${blocks} blocks) in a fresh pane${splitNote}. ` +
      `Reference: the pane's last 200 output lines, ANSI stripped (${naive.length} chars; the pane printed ${lines.length} lines), what a naive agent would send. ` +
      `Tokens = chars / 4 throughout (an estimate, no tokenizer)`,
  });
  report.info(
    'agent: whole request tokens',
    tokens(request.rawBody.length),
    'tok',
    `the JSON body (${request.rawBody.length} chars: system, tools, the one message) / 4; ` +
      `${(tokens(request.rawBody.length) / naiveTokens).toFixed(2)}x the naive tail's ${naiveTokens}; the agent's own estimate of the request: ${agentEstimate ?? '?'} tokens`,
  );
}

/** Removes OSC, CSI and other escape sequences and carriage returns: the text a screen shows, line by line. */
function stripAnsi(text) {
  return text
    .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '')
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[()][0-9A-Za-z]/g, '')
    .replace(/\x1b[@-_]/g, '')
    .replace(/\r/g, '')
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
}

/** Each measurement starts from an empty conversation, whatever a failed one left behind. */
async function freshConversation(watch, stub) {
  stub.clearReplies();
  const view = await watch.client.request('agent.new', {});
  await watch.until(() => watch.view?.id === view.id && watch.view.status === 'idle', 5_000, 'a new, idle conversation');
}

/** The plan step running `command`, once the agent waits for its approval. */
function proposedStep(view, command) {
  if (view?.status !== 'awaiting-approval') return undefined;
  const plan = view.items.findLast((item) => item.role === 'plan')?.plan;
  const step = plan?.steps.find((candidate) => candidate.status === 'proposed' && candidate.command === command);
  return step ? { planId: plan.id, stepId: step.id } : undefined;
}

function lastToolResult(body) {
  const content = body?.messages?.at(-1)?.content;
  return Array.isArray(content) ? content.find((part) => part.type === 'tool_result') : undefined;
}
