import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TANDEM_BIN, useAgentCli } from '../../support/agentCli';
import { deadPort } from '../../support/deadPort';
import { startOtlpReceiver } from '../../support/otlpReceiver';
import { readSpanLines, traceFile, writeTandemFile } from '../../support/tandemFiles';
import { waitUntil } from '../../support/waitUntil';

// OTLP export of real `tandem agent` runs (the built CLI, its own bash in its own pty, the real
// SDK against the scripted model server) to a small OTLP/HTTP collector on loopback.

const { setup, start } = useAgentCli();
const STDIO = ['--approve=stdio', '--input-format', 'json'];
const MODULE_LOG_HOOK = join(__dirname, '../../support/moduleLog/register.mjs');
const CHAT = 3; // OTLP's SPAN_KIND_CLIENT
const INTERNAL = 1;


const jsonlSpans = readSpanLines;

const writeConfig = (env: NodeJS.ProcessEnv, toml: string) => writeTandemFile(env, 'config.toml', toml);

const receivers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
async function receiver(options?: Parameters<typeof startOtlpReceiver>[0]) {
  const started = await startOtlpReceiver(options);
  receivers.push(started);
  return started;
}

describe('tandem agent OTLP export', () => {
  it('sends the run’s span tree with the GenAI attributes and the ids of traces.jsonl — a child run’s too — and no prompt, command text or output', async () => {
    const collector = await receiver();
    const { model, env } = await setup();
    const childCommand = `node ${TANDEM_BIN} agent -c '# PLANTED-CHILD-PROMPT' </dev/null; printf 'PLANTED-%s\\n' OUTPUT # PLANTED-COMMAND-TEXT`;
    model.script(
      { parts: [{ text: 'Starting a child.' }, { toolUse: { id: 'c1', name: 'run_command', input: { command: childCommand, purpose: 'a child run' } } }] },
      { parts: [{ text: 'PLANTED-CHILD-ANSWER' }] },
      { parts: [{ text: 'PLANTED-PARENT-ANSWER' }] },
    );
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=team%20a, x-empty-ok=1', OTEL_SERVICE_NAME: 'tandem-ci' };
    const parent = start(STDIO, env, { stdin: 'pipe', env: otel });
    const session = await parent.waitFor((event) => event.type === 'session', 'the session event');
    parent.send({ type: 'instruction', text: '# PLANTED-PARENT-PROMPT start a child' });
    const request = await parent.waitFor((event) => event.type === 'approval_request', 'the approval request');
    parent.send({ type: 'approval', id: request.id, decision: 'allow' });
    await parent.waitFor((event) => event.type === 'output' && String(event.text).includes('PLANTED-OUTPUT'), 'the step’s output', 90_000);
    await parent.waitFor((event) => event.type === 'message' && event.text === 'PLANTED-PARENT-ANSWER', 'the final answer', 90_000);
    parent.child.stdin!.end();
    expect(await parent.exitCode()).toBe(0);
    expect(parent.stderr).not.toContain('OTLP');

    // Every request went to the traces path with the headers, URL-decoded.
    expect(collector.requests.length).toBeGreaterThan(0);
    for (const received of collector.requests) {
      expect(received.path).toBe('/v1/traces');
      expect(received.headers['x-tenant']).toBe('team a');
      expect(received.headers['content-type']).toContain('application/json');
    }

    // The same spans, with the same ids and parent links, as traces.jsonl (both processes' lines).
    const lines = jsonlSpans(env);
    const exported = collector.spans();
    expect(exported.map((span) => span.spanId).sort()).toEqual(lines.map((line) => line.span_id).sort());
    for (const line of lines) {
      const span = exported.find((candidate) => candidate.spanId === line.span_id)!;
      expect({ traceId: span.traceId, parent: span.parentSpanId ?? null, name: span.name, pid: span.resource['process.pid'], start: span.startMs, end: span.endMs }).toEqual({
        traceId: line.trace_id,
        parent: line.parent_span,
        name: line.name,
        pid: line.pid,
        start: Date.parse(line.start as string),
        end: Date.parse(line.end as string),
      });
    }

    const mine = exported.filter((span) => span.resource['process.pid'] === parent.child.pid);
    const root = mine.find((span) => span.name === 'invoke_agent')!;
    expect(root).toMatchObject({ traceId: session.trace_id, parentSpanId: undefined, kind: INTERNAL });
    expect(root.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'tandem', 'gen_ai.conversation.id': expect.any(String), 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude-sonnet-5-5', 'tandem.result': 'success' });
    expect(root.resource).toMatchObject({ 'service.name': 'tandem-ci', 'host.name': expect.any(String), 'telemetry.sdk.language': 'nodejs' });
    const chats = mine.filter((span) => span.name === 'chat claude-sonnet-5-5');
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat).toMatchObject({ traceId: root.traceId, parentSpanId: root.spanId, kind: CHAT });
      expect(chat.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude-sonnet-5-5', 'gen_ai.usage.input_tokens': expect.any(Number), 'gen_ai.usage.output_tokens': expect.any(Number) });
    }
    const step = mine.find((span) => span.name === 'execute_tool run_command')!;
    expect(step).toMatchObject({ traceId: root.traceId, parentSpanId: root.spanId, kind: INTERNAL });
    expect(step.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'run_command', 'gen_ai.tool.call.id': 'c1', 'process.exit.code': 0 });
    expect(step.events).toContainEqual({ name: 'approval', attributes: expect.objectContaining({ 'tandem.approval.by': 'you' }) });

    // The child run exported too (it inherited the OTEL_ variables), its root under the step.
    const childRoot = exported.find((span) => span.name === 'invoke_agent' && span.resource['process.pid'] !== parent.child.pid)!;
    expect(childRoot).toMatchObject({ traceId: root.traceId, parentSpanId: step.spanId });

    // Content is off: no prompt, command text, output or answer in any byte sent.
    for (const received of collector.requests) {
      const raw = received.body.toString('latin1');
      for (const planted of ['PLANTED-PARENT-PROMPT', 'PLANTED-CHILD-PROMPT', 'PLANTED-COMMAND-TEXT', 'PLANTED-OUTPUT', 'PLANTED-CHILD-ANSWER', 'PLANTED-PARENT-ANSWER']) expect(raw).not.toContain(planted);
    }
  }, 180_000);

  it('OTEL_TRACES_EXPORTER=none sends nothing; traces.jsonl is written as before', async () => {
    const collector = await receiver();
    const { model, env } = await setup();
    model.script({ parts: [{ text: 'Hi.' }] });
    const run = start(['-c', '# hello'], env, { stdin: 'inherit-closed', env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_TRACES_EXPORTER: 'none' } });
    expect(await run.exitCode()).toBe(0);
    expect(jsonlSpans(env).map((span) => span.name)).toContain('invoke_agent');
    expect(collector.requests).toEqual([]);
  }, 90_000);

  it('a collector that refuses connections or never answers does not hold or fail the run: one line on stderr, traces.jsonl complete', async () => {
    const hanging = await receiver({ answer: 'never' });
    for (const endpoint of [`http://127.0.0.1:${await deadPort()}`, hanging.url]) {
      const { model, env } = await setup();
      model.script({ parts: [{ text: 'Hi.' }] });
      // The SDK would go on retrying (or waiting for an answer) for a minute: the run must not wait with it.
      const run = start(['-c', '# hello'], env, { stdin: 'inherit-closed', env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/v1/traces`, OTEL_EXPORTER_OTLP_TIMEOUT: '60000' } });
      expect(await run.exitCode(30_000)).toBe(0);
      expect(run.events.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
      expect(jsonlSpans(env).map((span) => span.name).sort()).toEqual(['chat claude-sonnet-5-5', 'invoke_agent']);
      const said = run.stderr.split('\n').filter((line) => line.includes('OTLP'));
      expect(said).toHaveLength(1);
      expect(said[0]).toContain(`OTLP export to ${endpoint}/v1/traces`);
      expect(said[0]).toContain('dropped');
    }
    // The run gives up on the collector after its flush limit instead of waiting for it: its exit
    // does not order it after the collector has read the request.
    await waitUntil(() => hanging.requests.length > 0, 'the export request at the collector that never answers');
  }, 120_000);

  it('[telemetry] enabled = false loads no exporter module and sends nothing; enabled, the exporter is loaded', async () => {
    const collector = await receiver();
    const loaded = async (config: string) => {
      const { model, env } = await setup();
      writeConfig(env, config);
      model.script({ parts: [{ text: 'Hi.' }] });
      const log = join(env.HOME!, 'modules.log');
      const run = start(['-c', '# hello'], env, { stdin: 'inherit-closed', env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, NODE_OPTIONS: `--import=${MODULE_LOG_HOOK}`, TANDEM_TEST_MODULE_LOG: log } });
      expect(await run.exitCode()).toBe(0);
      const modules = readFileSync(log, 'utf8');
      expect(modules).toContain('/out/main/chunks/agentCommand-');
      return { modules, env };
    };
    const off = await loaded('[telemetry]\nenabled = false\n');
    for (const module of ['otlpExport', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/sdk-trace', '@opentelemetry/resources']) expect(off.modules).not.toContain(module);
    expect(collector.requests).toEqual([]);
    expect(existsSync(traceFile(off.env))).toBe(false);

    const on = await loaded('[telemetry]\nenabled = true\n');
    expect(on.modules).toContain('/out/main/chunks/otlpExport-');
    expect(on.modules).toContain('@opentelemetry/exporter-trace-otlp-http');
    expect(collector.spans().map((span) => span.name)).toContain('invoke_agent');
  }, 120_000);

  it('[telemetry] otlp_endpoint turns the export on without any variable', async () => {
    const collector = await receiver();
    const { model, env } = await setup();
    writeConfig(env, `[telemetry]\notlp_endpoint = "${collector.url}/"\n`);
    model.script({ parts: [{ text: 'Hi.' }] });
    expect(await start(['-c', '# hello'], env, { stdin: 'inherit-closed' }).exitCode()).toBe(0);
    expect(collector.requests.map((received) => received.path)).toContain('/v1/traces');
    expect(collector.spans().map((span) => span.resource['service.name'])).toContain('tandem');
  }, 90_000);
});
