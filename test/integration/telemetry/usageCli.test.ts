import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localDay, type UsageReport } from '../../../src/main/telemetry/usageReport';
import { TANDEM_BIN, useAgentCli } from '../../support/agentCli';
import { shellTimeout } from '../../support/shellTimeout';
import { writeTandemFile } from '../../support/tandemFiles';

// `tandem usage` and `[ai] daily_budget_usd` with the built CLI: real `tandem agent` runs (the
// real SDK against the scripted model server) write the traces file `tandem usage` reads.

const { setup, start } = useAgentCli();

const writeConfig = (env: NodeJS.ProcessEnv, toml: string) => writeTandemFile(env, 'config.toml', toml);

function usage(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TANDEM_BIN, 'usage', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tandem usage did not exit; stderr: ${stderr}`));
    }, shellTimeout(30_000));
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const SONNET_COST = (1_000 * 3 + 200 * 15) / 1_000_000;

describe('tandem usage', () => {
  it('sums two runs per day, model and source: a priced model and one whose cost is unknown (a child run)', async () => {
    const { model, env } = await setup();
    model.script({ parts: [{ text: 'Priced.' }], usage: { inputTokens: 1_000, outputTokens: 200 } });
    const priced = start(['-c', '# first'], env, { stdin: 'inherit-closed' });
    expect(await priced.exitCode()).toBe(0);
    expect(priced.events.at(-1)).toMatchObject({ type: 'result', total_cost_usd: SONNET_COST });
    expect(priced.events.at(-1)).not.toHaveProperty('cost_unknown');
    model.script({ parts: [{ text: 'Local.' }], usage: { inputTokens: 300, outputTokens: 40 } });
    // A run whose environment carries a parent's trace is a child agent.
    const child = { TANDEM_MODEL: 'llama-local-7b', TRACEPARENT: `00-${'c'.repeat(32)}-${'d'.repeat(16)}-01`, TANDEM_TRACE_DEPTH: '1' };
    const unpriced = start(['-c', '# second'], env, { stdin: 'inherit-closed', env: child });
    expect(await unpriced.exitCode()).toBe(0);
    // The stream says cost unknown rather than a guess.
    expect(unpriced.events.find((event) => event.type === 'usage')).toMatchObject({ cost_unknown: true });
    expect(unpriced.events.at(-1)).toMatchObject({ type: 'result', cost_unknown: true });
    expect(unpriced.events.at(-1)).not.toHaveProperty('total_cost_usd');

    // The spans themselves: each chat span its cost (absent when unknown), each root its source.
    const spans = readFileSync(join(env.XDG_STATE_HOME!, 'tandem', 'traces.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { name: string; attributes: Record<string, unknown> });
    const chat = (name: string) => spans.find((span) => span.name === name)!.attributes;
    expect(chat('chat claude-sonnet-5-5')['tandem.cost_usd']).toBeCloseTo(SONNET_COST, 10);
    expect(chat('chat llama-local-7b')).not.toHaveProperty('tandem.cost_usd');
    expect(spans.filter((span) => span.name === 'invoke_agent').map((span) => span.attributes['tandem.source'])).toEqual(['headless', 'child']);

    const json = await usage(['--json', '--since', '24h'], env);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as UsageReport;
    expect(report.total).toMatchObject({ requests: 2, input_tokens: 1_300, output_tokens: 240, cost_unknown_requests: 1 });
    expect(report.total.cost_usd).toBeCloseTo(SONNET_COST, 10);
    expect(report.by_day).toEqual([{ day: localDay(new Date()), ...report.total }]);
    expect(report.by_model).toEqual([
      { model: 'claude-sonnet-5-5', requests: 1, input_tokens: 1_000, output_tokens: 200, cost_usd: expect.closeTo(SONNET_COST, 10), cost_unknown_requests: 0 },
      { model: 'llama-local-7b', requests: 1, input_tokens: 300, output_tokens: 40, cost_usd: null, cost_unknown_requests: 1 },
    ]);
    expect(report.by_source).toEqual([
      { source: 'child', requests: 1, input_tokens: 300, output_tokens: 40, cost_usd: null, cost_unknown_requests: 1 },
      { source: 'headless', requests: 1, input_tokens: 1_000, output_tokens: 200, cost_usd: expect.closeTo(SONNET_COST, 10), cost_unknown_requests: 0 },
    ]);

    const text = await usage([], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/llama-local-7b\s+1\s+300\s+40\s+cost unknown/);
    expect(text.stdout).toMatch(/claude-sonnet-5-5\s+1\s+1,000\s+200\s+\$0\.0060/);

    // Nothing since a later date; a --since it cannot read is a usage error.
    expect((JSON.parse((await usage(['--json', '--since', '2999-01-01'], env)).stdout) as UsageReport).total.requests).toBe(0);
    const bad = await usage(['--since', 'last week'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since takes a duration such as 2w, 7d, 24h or 30m');
  }, 120_000);

  it('says so when there is no traces file, and why when telemetry is off', async () => {
    const { env } = await setup();
    const none = await usage([], env);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('no traces file at');
    expect(none.stdout).toContain('no model request has been recorded');
    writeConfig(env, '[telemetry]\nenabled = false\n');
    const off = await usage(['--json'], env);
    expect(JSON.parse(off.stdout)).toMatchObject({ total: { requests: 0, cost_usd: null } });
    expect(off.stderr).toContain('telemetry is off ([telemetry] enabled = false)');
  }, 60_000);
});

describe('[ai] daily_budget_usd in tandem agent', () => {
  it('a budget reached mid-conversation refuses the next request before it is sent: the step that ran stays, exit 4', async () => {
    const { model, env } = await setup();
    writeConfig(env, '[ai]\ndaily_budget_usd = 0.001\n');
    model.script(
      { parts: [{ toolUse: { id: 'b1', name: 'run_command', input: { command: 'echo step-ran', purpose: 'a step' } } }], usage: { inputTokens: 1_000, outputTokens: 200 } },
      { parts: [{ text: 'Never sent.' }] },
    );
    const agent = start(['--json', '--approve=policy', '-c', '# do it'], env, { stdin: 'inherit-closed' });
    expect(await agent.exitCode(90_000)).toBe(4);
    const finished = agent.events.find((event) => event.type === 'step' && event.phase === 'finished');
    expect(finished).toMatchObject({ status: 'done', exit_code: 0 });
    const error = agent.events.find((event) => event.type === 'error');
    expect(error).toMatchObject({ code: 'daily_budget' });
    expect(error?.message).toContain("today's model spend is $0.0060");
    expect(error?.message).toContain('daily budget of $0.0010 ([ai] daily_budget_usd)');
    expect(agent.events.at(-1)).toMatchObject({ type: 'result', subtype: 'error_budget', exit_code: 4, is_error: true });
    expect(model.requests).toHaveLength(1);
  }, 120_000);

  it('a model without a price is not counted, and the stream says so once', async () => {
    const { model, env } = await setup();
    writeConfig(env, '[ai]\ndaily_budget_usd = 0.000001\n');
    model.script({ parts: [{ text: 'One.' }], usage: { inputTokens: 100_000, outputTokens: 10_000 } }, { parts: [{ text: 'Two.' }] });
    const agent = start(['--json', '--approve=stdio', '--input-format', 'json'], env, { stdin: 'pipe', env: { TANDEM_MODEL: 'llama-local-7b' } });
    await agent.waitFor((event) => event.type === 'session', 'the session event');
    agent.send({ type: 'instruction', text: 'first' });
    await agent.waitFor((event) => event.type === 'message' && event.text === 'One.', 'the first answer');
    agent.send({ type: 'instruction', text: 'second' });
    await agent.waitFor((event) => (event.type === 'message' && event.text === 'Two.') || event.type === 'error', 'the second answer, not refused');
    expect(agent.events.find((event) => event.type === 'error')).toBeUndefined();
    agent.child.stdin!.end();
    expect(await agent.exitCode()).toBe(0);
    const notices = agent.events.filter((event) => event.type === 'notice' && String(event.message).includes('llama-local-7b has no price'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ level: 'warning' });
    expect(model.requests).toHaveLength(2);
  }, 90_000);

  it("counts what other processes spent today from the traces file: the first request is refused", async () => {
    const { model, env } = await setup();
    writeConfig(env, '[ai]\ndaily_budget_usd = 1\n');
    const earlier = {
      trace_id: 'e'.repeat(32), span_id: 'f'.repeat(16), parent_span: null, name: 'chat claude-opus-4-1', pid: 1, host: 'another-host',
      start: new Date().toISOString(), end: new Date().toISOString(), duration_ms: 1, status: 'ok',
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'claude-opus-4-1', 'gen_ai.usage.input_tokens': 10_000, 'gen_ai.usage.output_tokens': 20_000, 'tandem.cost_usd': 1.65, 'tandem.source': 'panel' },
    };
    mkdirSync(join(env.XDG_STATE_HOME!, 'tandem'), { recursive: true });
    writeFileSync(join(env.XDG_STATE_HOME!, 'tandem', 'traces.jsonl'), `${JSON.stringify(earlier)}\n`);
    model.script({ parts: [{ text: 'Never sent.' }] });
    const agent = start(['--json', '-c', '# hello'], env, { stdin: 'inherit-closed' });
    expect(await agent.exitCode()).toBe(4);
    expect(agent.events.find((event) => event.type === 'error')?.message).toContain("today's model spend is $1.65");
    expect(model.requests).toHaveLength(0);
  }, 90_000);
});
