import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useAgentCli, type AgentEvent } from '../../support/agentCli';
import { invalidEvents } from '../../support/agentProtocol';
import { processesMatching } from '../../support/processes';
import { requestText } from '../../support/agentConversation';
import { shellTimeout } from '../../support/shellTimeout';

// How a headless run ends: --auto until done, limits (--max-steps, --timeout), signals, and a
// step that prints far more than the stream carries.

const { setup, start } = useAgentCli();
const run = (id: string, command: string) => ({ toolUse: { id, name: 'run_command', input: { command, purpose: `run ${command}` } } });
const outputText = (events: AgentEvent[]) => events.filter((event) => event.type === 'output').map((event) => String(event.text)).join('');

async function untilProcess(commandLine: string): Promise<void> {
  const deadline = Date.now() + shellTimeout(30_000);
  while (processesMatching(commandLine).length === 0) {
    if (Date.now() > deadline) throw new Error(`no ${commandLine} appeared`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('how a tandem agent run ends', () => {
  it('--auto works until the agent says it is done, with the auto instructions and its summary', async () => {
    const { model, env } = await setup();
    model.script({ parts: [run('g1', 'echo one')] }, { parts: [run('g2', 'echo two')] }, { parts: [{ text: 'Done: both ran.' }] });
    const agent = start(['--auto', '-c', 'run the two echoes'], env, { stdin: 'inherit-closed' });
    expect(await agent.exitCode()).toBe(0);
    expect(invalidEvents(agent.events)).toEqual([]);
    expect(agent.events[0]).toMatchObject({ type: 'session', auto: true });
    expect(requestText(await model.waitForRequest(1))).toContain('Auto mode: work on this task');
    expect(outputText(agent.events)).toBe('one\ntwo\n');
    expect(agent.events.at(-1)).toMatchObject({ type: 'result', exit_code: 0, result: 'Done: both ran.', num_turns: 3 });
  }, 120_000);

  it('--max-steps refuses steps beyond the limit, tells the model, and exits 1', async () => {
    const { model, env } = await setup();
    model.script({ parts: [run('g1', 'echo first'), run('g2', 'echo second')] }, { parts: [{ text: 'Only one ran.' }] });
    const agent = start(['--max-steps', '1', '-c', 'two echoes'], env, { stdin: 'inherit-closed' });
    expect(await agent.exitCode()).toBe(1);
    expect(outputText(agent.events)).toBe('first\n');
    expect(agent.events.find((event) => event.type === 'step' && event.phase === 'finished' && event.command === 'echo second')).toMatchObject({ status: 'denied' });
    expect(requestText(await model.waitForRequest(2))).toContain("run's limit of 1 step was reached");
  }, 120_000);

  it('--timeout ends the run with 124 and kills the running step', async () => {
    const { model, env } = await setup();
    model.script({ parts: [run('s1', 'sleep 7474')] });
    const agent = start(['--timeout', '3', '-c', 'wait'], env, { stdin: 'inherit-closed' });
    expect(await agent.exitCode()).toBe(124);
    expect(agent.events.at(-1)).toMatchObject({ type: 'result', subtype: 'error_timeout', exit_code: 124 });
    expect(processesMatching('sleep 7474')).toEqual([]);
  }, 120_000);

  it('a step waiting for input says so as a notice (nobody watches the pane of a headless run)', async () => {
    const { model, env } = await setup();
    model.script({ parts: [run('r1', 'cat')] });
    const agent = start(['-c', 'read something'], env, { stdin: 'inherit-closed' });
    const notice = await agent.waitFor((event) => event.type === 'notice' && String(event.message).includes('may be waiting for input'), 'the waiting-for-input notice', 60_000);
    expect(notice.message).toMatch(/^Step 1 \(cat\): no output for 15 s: it may be waiting for input/);
    agent.child.kill('SIGTERM');
    expect(await agent.exitCode()).toBe(130);
  }, 120_000);

  it('SIGTERM during a step kills its process group and exits 130', async () => {
    const { model, env } = await setup();
    model.script({ parts: [run('s1', 'sleep 7575')] });
    const agent = start(['-c', 'wait'], env, { stdin: 'inherit-closed' });
    await untilProcess('sleep 7575');
    agent.child.kill('SIGTERM');
    expect(await agent.exitCode()).toBe(130);
    expect(agent.events.at(-1)).toMatchObject({ type: 'result', subtype: 'error_interrupted', exit_code: 130 });
    expect(processesMatching('sleep 7575')).toEqual([]);
  }, 120_000);

  it('stdout closing under it (`| head -1`) stops the run at its next line, killing the running step: exit 130', async () => {
    const { model, env } = await setup();
    model.script({ parts: [run('t1', 'while :; do echo tick-7676; sleep 0.2176; done')] });
    const agent = start(['-c', 'tick'], env, { stdin: 'inherit-closed' });
    await agent.waitFor((event) => event.type === 'output', 'the first output');
    agent.child.stdout!.destroy();
    expect(await agent.exitCode()).toBe(130);
    expect(processesMatching('sleep 0.2176')).toEqual([]);
  }, 120_000);

  it('10,000 lines stream whole and in order; a flood far beyond the stream loses its middle, counted, in bounded memory', async () => {
    const { model, env } = await setup();
    model.script({ parts: [run('s1', 'seq 1 10000')] }, { parts: [run('s2', 'seq 1 4000000')] }, { parts: [{ text: 'Counted.' }] });
    const agent = start(['-c', 'count'], env, { stdin: 'inherit-closed' });
    let peakKb = 0;
    const sampler = setInterval(() => {
      try {
        const rss = /^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${agent.child.pid}/status`, 'utf8'))?.[1];
        peakKb = Math.max(peakKb, Number(rss ?? 0));
      } catch {
        // It exited.
      }
    }, 25);
    const status = await agent.exitCode(180_000);
    clearInterval(sampler);
    expect(status).toBe(0);
    const outputs = agent.events.filter((event) => event.type === 'output');
    const first = outputs.filter((event) => String(event.step_id).endsWith('s1') && event.index === 1 && agent.events.some((step) => step.type === 'plan' && step.plan_id === event.plan_id && (step.steps as { command: string }[])[0]!.command === 'seq 1 10000'));
    expect(first.map((event) => String(event.text)).join('')).toBe(`${Array.from({ length: 10_000 }, (_, i) => i + 1).join('\n')}\n`);
    const flood = agent.events.find((event) => event.type === 'step' && event.phase === 'finished' && event.command === 'seq 1 4000000');
    expect(flood).toMatchObject({ status: 'done', exit_code: 0 });
    // 4,000,000 lines are ~30 MB: what the stream carried is a fraction, and says how much it left out.
    expect(Number(flood!.omitted_bytes)).toBeGreaterThan(1_000_000);
    const floodText = outputs.filter((event) => event.plan_id === flood!.plan_id).map((event) => String(event.text)).join('');
    expect(floodText.length).toBeLessThan(15_000_000);
    expect(floodText.startsWith('1\n2\n3\n')).toBe(true);
    expect(floodText.endsWith('3999999\n4000000\n')).toBe(true);
    expect(peakKb).toBeGreaterThan(0);
    expect(peakKb).toBeLessThan(600 * 1024);
  }, 240_000);
});
