import { ALNUM, pseudo } from '../../support/pseudoText';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TANDEM_BIN, useAgentCli } from '../../support/agentCli';

/** An AWS secret key of the real shape (AWS's documentation key ends in EXAMPLEKEY and is a placeholder). */
const AWS_SECRET = pseudo(40, ALNUM + '/+', 17);
import { readSpanLines, traceFile, writeTandemFile } from '../../support/tandemFiles';

// Traces of real `tandem agent` runs (the built CLI, its own bash in its own pty, the real SDK
// against the scripted model server), read back from $XDG_STATE_HOME/tandem/traces.jsonl.

const { setup, start } = useAgentCli();
const STDIO = ['--approve=stdio', '--input-format', 'json'];


const spans = readSpanLines;

const writeConfig = (env: NodeJS.ProcessEnv, toml: string) => writeTandemFile(env, 'config.toml', toml);

describe('tandem agent traces', () => {
  it('links root → chat → execute_tool, and a tandem agent started by a step joins the trace under that step; no content by default', async () => {
    const { model, env } = await setup();
    const childCommand = `node ${TANDEM_BIN} agent -c '# PLANTED-CHILD-PROMPT' </dev/null; echo PLANTED-COMMAND-TEXT`;
    model.script(
      { parts: [{ text: 'Starting a child.' }, { toolUse: { id: 'c1', name: 'run_command', input: { command: childCommand, purpose: 'a child run' } } }] },
      { parts: [{ text: 'PLANTED-CHILD-ANSWER' }] },
      { parts: [{ text: 'All done.' }] },
    );
    const parent = start(STDIO, env, { stdin: 'pipe' });
    const session = await parent.waitFor((event) => event.type === 'session', 'the session event');
    parent.send({ type: 'instruction', text: '# PLANTED-PARENT-PROMPT start a child' });
    const request = await parent.waitFor((event) => event.type === 'approval_request', 'the approval request');
    parent.send({ type: 'approval', id: request.id, decision: 'allow' });
    await parent.waitFor((event) => event.type === 'message' && event.text === 'All done.', 'the final answer', 90_000);
    parent.child.stdin!.end();
    expect(await parent.exitCode()).toBe(0);

    const lines = spans(env);
    const mine = lines.filter((span) => span.pid === parent.child.pid);
    const root = mine.find((span) => span.name === 'invoke_agent')!;
    expect(root).toMatchObject({ parent_span: null, trace_id: session.trace_id, result: 'success', attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': expect.any(String) } });
    expect(root.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(root.span_id).toMatch(/^[0-9a-f]{16}$/);
    const chats = mine.filter((span) => span.name === 'chat claude-sonnet-5-5');
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat).toMatchObject({ trace_id: root.trace_id, parent_span: root.span_id });
      expect(chat.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude-sonnet-5-5', 'gen_ai.usage.output_tokens': expect.any(Number) });
    }
    const step = mine.find((span) => span.name === 'execute_tool run_command')!;
    expect(step).toMatchObject({ trace_id: root.trace_id, parent_span: root.span_id, type: 'shell', exit: 0, approval: 'you' });
    expect(step.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'run_command', 'gen_ai.tool.call.id': 'c1', 'process.exit.code': 0 });

    // The child run: another process, the same trace, its root under the step that started it.
    const others = lines.filter((span) => span.pid !== parent.child.pid);
    const childRoot = others.find((span) => span.name === 'invoke_agent')!;
    expect(childRoot).toMatchObject({ trace_id: root.trace_id, parent_span: step.span_id, attributes: { 'tandem.trace.depth': 1 } });
    expect(others.find((span) => span.name.startsWith('chat '))).toMatchObject({ trace_id: root.trace_id, parent_span: childRoot.span_id });

    // Content is off by default: no prompt, command text or answer in the file.
    const text = readFileSync(traceFile(env), 'utf8');
    for (const planted of ['PLANTED-PARENT-PROMPT', 'PLANTED-CHILD-PROMPT', 'PLANTED-COMMAND-TEXT', 'PLANTED-CHILD-ANSWER']) expect(text).not.toContain(planted);
    expect(root.instruction).toBeUndefined();
    expect(step.command).toBeUndefined();
  }, 150_000);

  it('include_content adds the instruction and command text, scrubbed', async () => {
    const { model, env } = await setup();
    writeConfig(env, '[telemetry]\ninclude_content = true\n');
    const secret = `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`;
    model.script({ parts: [{ toolUse: { id: 'g1', name: 'run_command', input: { command: `echo visible-command # ${secret}`, purpose: 'p' } } }] }, { parts: [{ text: 'Done.' }] });
    const agent = start(STDIO, env, { stdin: 'pipe' });
    await agent.waitFor((event) => event.type === 'session', 'the session event');
    agent.send({ type: 'instruction', text: `# visible-prompt ${secret}` });
    const request = await agent.waitFor((event) => event.type === 'approval_request', 'the approval request');
    agent.send({ type: 'approval', id: request.id, decision: 'allow' });
    await agent.waitFor((event) => event.type === 'message' && event.text === 'Done.', 'the answer');
    agent.child.stdin!.end();
    expect(await agent.exitCode()).toBe(0);
    const lines = spans(env);
    expect(lines.find((span) => span.name === 'invoke_agent')!.instruction).toContain('visible-prompt');
    expect(lines.find((span) => span.name === 'execute_tool run_command')!.command).toContain('echo visible-command');
    expect(readFileSync(traceFile(env), 'utf8')).not.toContain(AWS_SECRET);
  }, 90_000);

  it('retain_days trims spans that ended before it; enabled = false writes nothing', async () => {
    const { model, env } = await setup();
    const file = traceFile(env);
    mkdirSync(join(env.XDG_STATE_HOME!, 'tandem'), { recursive: true });
    const old = (days: number) => JSON.stringify({ trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16), parent_span: null, name: `old-${days}`, end: new Date(Date.now() - days * 86_400_000).toISOString() });
    writeFileSync(file, `${old(10)}\n${old(3)}\n`);
    writeConfig(env, '[telemetry]\nretain_days = 5\n');
    model.script({ parts: [{ text: 'Hi.' }] });
    expect(await start(['-c', '# hello'], env, { stdin: 'inherit-closed' }).exitCode()).toBe(0);
    const names = spans(env).map((span) => span.name);
    expect(names).not.toContain('old-10');
    expect(names).toContain('old-3');
    expect(names).toContain('invoke_agent');

    const off = await setup();
    writeConfig(off.env, '[telemetry]\nenabled = false\n');
    off.model.script({ parts: [{ text: 'Hi.' }] });
    expect(await start(['-c', '# hello'], off.env, { stdin: 'inherit-closed' }).exitCode()).toBe(0);
    expect(existsSync(traceFile(off.env))).toBe(false);
  }, 90_000);
});
