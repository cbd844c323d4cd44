import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useAgentCli } from '../../support/agentCli';
import { invalidEvents } from '../../support/agentProtocol';

// TANDEM_TRACE_SINK on real `tandem agent` runs: `stdout` puts finished spans on the NDJSON
// event stream (for a parent that aggregates), `file:///path` writes them to another file.

const { setup, start } = useAgentCli();
const STDIO = ['--approve=stdio', '--input-format', 'json'];
const defaultFile = (env: NodeJS.ProcessEnv) => join(env.XDG_STATE_HOME!, 'tandem', 'traces.jsonl');

type SpanEvent = { type: 'span'; span: { trace_id: string; span_id: string; parent_span: string | null; name: string; attributes: Record<string, unknown> } };

describe('TANDEM_TRACE_SINK', () => {
  it('stdout: spans come on the event stream, valid against the schema and before the result line; no file is written; a step’s shell is told to write the default file', async () => {
    const { model, env } = await setup();
    model.script({ parts: [{ toolUse: { id: 's1', name: 'run_command', input: { command: 'echo "sink=$TANDEM_TRACE_SINK"', purpose: 'show the sink' } } }] }, { parts: [{ text: 'Done.' }] });
    const agent = start(STDIO, env, { stdin: 'pipe', env: { TANDEM_TRACE_SINK: 'stdout' } });
    const session = await agent.waitFor((event) => event.type === 'session', 'the session event');
    agent.send({ type: 'instruction', text: '# show the sink' });
    const request = await agent.waitFor((event) => event.type === 'approval_request', 'the approval request');
    agent.send({ type: 'approval', id: request.id, decision: 'allow' });
    await agent.waitFor((event) => event.type === 'message' && event.text === 'Done.', 'the answer');
    agent.child.stdin!.end();
    expect(await agent.exitCode()).toBe(0);

    expect(invalidEvents(agent.events)).toEqual([]);
    expect(agent.events.at(-1)?.type).toBe('result');
    const spans = agent.events.filter((event) => event.type === 'span').map((event) => (event as unknown as SpanEvent).span);
    const root = spans.find((span) => span.name === 'invoke_agent')!;
    expect(root).toMatchObject({ trace_id: session.trace_id, parent_span: null });
    expect(spans.filter((span) => span.name === 'chat claude-sonnet-5-5')).toHaveLength(2);
    const step = spans.find((span) => span.name === 'execute_tool run_command')!;
    expect(step).toMatchObject({ trace_id: root.trace_id, parent_span: root.span_id, type: 'shell', exit: 0 });
    for (const span of spans) expect(span.trace_id).toBe(root.trace_id);
    // The root ends after its steps, and still comes before the result line.
    expect(agent.events.findIndex((event) => event.type === 'span' && (event as unknown as SpanEvent).span.name === 'invoke_agent')).toBeLessThan(agent.events.length - 1);

    expect(existsSync(defaultFile(env))).toBe(false);
    const output = agent.events.filter((event) => event.type === 'output').map((event) => String(event.text)).join('');
    expect(output).toContain('sink=file\n');
  }, 90_000);

  it('file:///path writes the spans to that file instead of the default one, and a step’s shell is pointed at it', async () => {
    const { model, env } = await setup();
    const elsewhere = join(env.HOME!, 'spans dir', 'run.jsonl');
    model.script({ parts: [{ toolUse: { id: 'f1', name: 'run_command', input: { command: 'echo "sink=$TANDEM_TRACE_SINK"', purpose: 'show the sink' } } }] }, { parts: [{ text: 'Hi.' }] });
    const run = start(['--approve=policy', '-c', '# hello'], env, { stdin: 'inherit-closed', env: { TANDEM_TRACE_SINK: pathToFileURL(elsewhere).href } });
    expect(await run.exitCode()).toBe(0);
    expect(run.events.filter((event) => event.type === 'output').map((event) => String(event.text)).join('')).toContain(`sink=${pathToFileURL(elsewhere).href}`);
    expect(run.events.filter((event) => event.type === 'span')).toEqual([]);
    const names = readFileSync(elsewhere, 'utf8').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { name: string }).name);
    expect(names.sort()).toEqual(['chat claude-sonnet-5-5', 'chat claude-sonnet-5-5', 'execute_tool run_command', 'invoke_agent']);
    expect(existsSync(defaultFile(env))).toBe(false);
  }, 60_000);

  it('a value Tandem does not know keeps the default file and says so on stderr', async () => {
    const { model, env } = await setup();
    model.script({ parts: [{ text: 'Hi.' }] });
    const run = start(['-c', '# hello'], env, { stdin: 'inherit-closed', env: { TANDEM_TRACE_SINK: 'syslog' } });
    expect(await run.exitCode()).toBe(0);
    expect(run.stderr).toContain('TANDEM_TRACE_SINK=syslog is not a sink Tandem has');
    expect(readFileSync(defaultFile(env), 'utf8')).toContain('"invoke_agent"');
  }, 60_000);
});
