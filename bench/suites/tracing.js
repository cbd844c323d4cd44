// 12. Tracing, in this process (no UI, no server): what a span costs the thread that makes it —
// the span's start and end and the sinks' write — with the JSONL sink alone and with OTLP beside
// it (docs/telemetry.md). The background work (the file append every 200 ms, the OTLP export of
// a batch) runs between samples and is not counted: it is off the keystroke and output paths.
//   - the engine's Tracer and AgentTracing, bundled like the safety suite; traces.jsonl in a
//     temp dir; OTLP to a loopback receiver in this process that answers 200
//   - three operations: a bare span (start, five attributes, end), a model request (the
//     `chat {model}` span as the agent makes it), a plan step (the `execute_tool` span, its
//     shell's trace variables, its end)
//   - each timed in batches of BATCH operations, one sample = a batch's per-operation mean; JSONL
//     and JSONL + OTLP alternate batch by batch, so a busy neighbour slows both alike; between
//     batches both tracers are flushed (the append, the export to the receiver), as their timers
//     would between an app's bursts of spans
//   - target p99 <= 0.2 ms per operation (issue 24); the OTLP exporter's first load is an info row
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importEngineModules } from '../lib/engineModules.js';
import { measure } from '../lib/report.js';
import { ROOT } from '../lib/root.js';
import { percentile } from '../lib/stats.js';

const BATCHES = Number(process.env.BENCH_TRACING_BATCHES ?? 200);
const BATCH = 100;
const LIMIT_US = 200;
const SETTINGS = { enabled: true, include_content: false, retain_days: 30, otlp_endpoint: '' };

export async function tracing(report) {
  const engine = await importEngineModules('tracing', { tracer: 'src/main/telemetry/tracer.ts', agentTracing: 'src/main/telemetry/agentTracing.ts' });
  const result = await measure(report, 'tracing: span cost on the hot path', () => run(engine));
  if (!result) return;
  const { samples, load, exported, written } = result;
  const us = (values, p) => percentile(values, p) * 1000;
  const rows = [
    ['span', 'span'],
    ['model request', 'chat'],
    ['plan step', 'step'],
  ];
  for (const [what, key] of rows) {
    for (const [sinks, name] of [['JSONL', 'jsonl'], ['JSONL + OTLP', 'otlp']]) {
      const values = samples[name][key];
      report.absolute({
        name: `tracing: ${what} on the hot path, ${sinks}, p99`,
        value: us(values, 99),
        unit: 'µs',
        limit: LIMIT_US,
        note: `${BATCHES} batches of ${BATCH}; p50 ${us(values, 50).toFixed(1)} µs, max ${(Math.max(...values) * 1000).toFixed(1)} µs`,
      });
    }
  }
  report.info('tracing: OTLP exporter first load (lazy import)', load, 'ms', `once per process, when its first trace starts; ${exported} of ${written} OTLP spans reached the receiver`);
}

async function run({ tracer: tracerModule, agentTracing: agentTracingModule }) {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-bench-tracing-'));
  const receiver = await startReceiver();
  try {
    // The exporter's chunk, loaded (and timed) once, as the first trace of a process would.
    const chunk = readdirSync(join(ROOT, 'out/bench/tracing')).find((name) => name.startsWith('otlpExport'));
    const started = performance.now();
    await import(pathToFileURL(join(ROOT, 'out/bench/tracing', chunk)).href);
    const load = performance.now() - started;

    const make = (name, env) => {
      const tracer = new tracerModule.Tracer({ env, file: join(dir, `${name}.jsonl`), settings: () => SETTINGS, oneTrace: true, version: 'bench', onError: (error) => { throw error; }, onProblem: (message) => { throw new Error(message); } });
      return { tracer, tracing: new agentTracingModule.AgentTracing(tracer, () => 'bench-conversation') };
    };
    const setups = { jsonl: make('jsonl', {}), otlp: make('otlp', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }) };
    const samples = { jsonl: { span: [], chat: [], step: [] }, otlp: { span: [], chat: [], step: [] } };
    let written = 0;
    for (let batch = -5; batch < BATCHES; batch++) {
      for (const name of batch % 2 ? ['jsonl', 'otlp'] : ['otlp', 'jsonl']) {
        const { tracing } = setups[name];
        tracing.loopStarted();
        const times = runBatch(setups[name].tracer, tracing, batch);
        tracing.loopEnded('success');
        if (name === 'otlp') written += 2 * BATCH + BATCH + 1;
        if (batch >= 0) for (const key of Object.keys(times)) samples[name][key].push(times[key]);
      }
      // The background work between samples: the file append and the OTLP export of what the batch ended.
      await Promise.all(Object.values(setups).map(({ tracer }) => tracer.flush()));
    }
    return { samples, load, exported: receiver.spans(), written };
  } finally {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One batch of each operation; per-operation means in ms. */
function runBatch(tracer, tracing, batch) {
  let t = performance.now();
  for (let i = 0; i < BATCH; i++) {
    tracer.startRoot('bench span').set({ 'bench.a': i, 'bench.b': 'value', 'bench.c': true, 'bench.d': batch, 'bench.e': 'another value' }).end();
  }
  const span = (performance.now() - t) / BATCH;
  t = performance.now();
  for (let i = 0; i < BATCH; i++) {
    const chat = tracing.chatStarted({ backendKind: 'anthropic', model: 'claude-sonnet-4-6' });
    tracing.chatEnded(chat, { kind: 'answered', result: { usage: { inputTokens: 1200 + i, outputTokens: 80 } } });
  }
  const chat = (performance.now() - t) / BATCH;
  t = performance.now();
  for (let i = 0; i < BATCH; i++) {
    // A step's life as the plan reports it: proposed, allowed and running (its shell's variables), done.
    const step = { id: `s${batch}-${i}`, index: i + 1, command: `ls -la dir-${i}`, purpose: 'look', status: 'proposed', tool: 'run_command', toolUseId: `t${i}`, risk: { level: 'green', reasons: [] } };
    tracing.stepsChanged([step]);
    const running = { ...step, status: 'running', decider: { by: 'policy', verdict: 'allowed', rule: 'ls' } };
    tracing.stepsChanged([running]);
    tracing.stepEnvironment(step.id);
    tracing.stepsChanged([{ ...running, status: 'done', exitCode: 0, durationMs: 12 }]);
  }
  const step = (performance.now() - t) / BATCH;
  return { span, chat, step };
}

/** A loopback OTLP/HTTP receiver that answers 200 and counts the spans it got. */
async function startReceiver() {
  let spans = 0;
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const resource of body.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) spans += scope.spans?.length ?? 0;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    spans: () => spans,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}
