import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyAuditLog } from '../../../src/main/safety/audit/auditVerify';
import { useAgentEngine } from '../../support/agentEngine';
import { EngineClient } from '../../support/engineClient';
import { recordingDesktop, run, runView, SELF, watcherFile } from './watcherRunSupport';

// The engine owns the watcher cards, and the rules every watcher run follows hold for runs a
// card's Run starts: a real engine with a real bash pane, watcher runs real `tandem agent
// --parent` children, the real SDK against the scripted model server.

const open = useAgentEngine();
const others: EngineClient[] = [];
afterEach(() => {
  for (const client of others.splice(0)) client.close();
});

const blockWatcher = (name: string, command: string, action = 'notify') => `
[[watcher]]
name = "${name}"
trigger = "block"
command = "${command}"
exit = "!=0"
action = "${action}"
debounce = "0ms"
max_runs_per_hour = 60
instruction = "# explain the failure"
`;

/** Another window (a reload, a second tab): it replaces the attached client. */
async function anotherClient(server: Parameters<typeof EngineClient.connect>[0]): Promise<EngineClient> {
  const client = await EngineClient.connect(server);
  others.push(client);
  await client.request('hello', {});
  return client;
}

describe('watcher cards', () => {
  it('the engine keeps them: a client that connects later gets the notify card and the run waiting on a step; Dismiss takes the card away for good', async () => {
    const { client, model, paneId, engine, server } = await open({ selfCommand: SELF, desktop: recordingDesktop() });
    watcherFile(engine, blockWatcher('failures', 'ls /no-such*'));
    await client.waitFor(() => engine.watchers!.view().watchers.length === 1, 15_000, 'the watcher to load');
    model.script({ parts: [run('y1', 'touch kept.txt')] });

    await client.runCommand(paneId, 'ls /no-such-kept');
    const fired = await client.waitFor(() => client.eventsOf('watcher.fired')[0], 15_000, 'the firing');

    const reloaded = await anotherClient(server);
    expect((await reloaded.request('watchers.cards', {})).cards).toEqual([
      { firingId: fired.firingId, name: 'failures', action: 'notify', reason: expect.stringMatching(/^`ls \/no-such-kept` exited \d+ in pane \d+$/) },
    ]);

    await reloaded.request('watchers.run', { firingId: fired.firingId });
    const waiting = await runView(reloaded, fired.firingId, (view) => view.asking.length > 0, 'the run waits on its step');
    const third = await anotherClient(server);
    const [card] = (await third.request('watchers.cards', {})).cards;
    expect(card).toMatchObject({ firingId: fired.firingId, name: 'failures', run: { state: 'running', asking: [{ id: waiting.asking[0]!.id, command: 'touch kept.txt' }] } });

    await third.request('watchers.dismiss', { firingId: fired.firingId });
    await third.waitFor(() => third.eventsOf('watcher.run').some((event) => event.firingId === fired.firingId && event.run === null), 15_000, 'the card to go');
    const fourth = await anotherClient(server);
    expect((await fourth.request('watchers.cards', {})).cards).toEqual([]);
  });

  it('a card’s Run takes one of the 2 run slots: with both taken it waits (the card says so) and starts when a run ends', async () => {
    const { client, model, paneId, engine, server } = await open({ selfCommand: SELF, desktop: recordingDesktop() });
    watcherFile(engine, blockWatcher('first', 'ls /no-such-a*') + blockWatcher('second', 'ls /no-such-b*') + blockWatcher('third', 'ls /no-such-c*'));
    await client.waitFor(() => engine.watchers!.view().watchers.length === 3, 15_000, 'the watchers to load');
    // The first two runs each wait on a step; the first, denied, ends; then the third runs.
    model.script({ parts: [run('y1', 'touch slot.txt')] }, { parts: [run('y1', 'touch slot.txt')] }, { parts: [{ text: 'FIRST-DONE' }] }, { parts: [{ text: 'THIRD-DONE' }] });

    const firingOf = async (command: string, name: string) => {
      await client.runCommand(paneId, command);
      return (await client.waitFor(() => client.eventsOf('watcher.fired').find((event) => event.name === name), 15_000, `the firing of ${name}`)).firingId;
    };
    const first = await firingOf('ls /no-such-a', 'first');
    const second = await firingOf('ls /no-such-b', 'second');
    const third = await firingOf('ls /no-such-c', 'third');

    await client.request('watchers.run', { firingId: first });
    await client.request('watchers.run', { firingId: second });
    const firstWaits = await runView(client, first, (view) => view.asking.length > 0, 'the first run waits');
    await runView(client, second, (view) => view.asking.length > 0, 'the second run waits');

    await client.request('watchers.run', { firingId: third });
    expect(await client.waitFor(() => client.eventsOf('watcher.waits-for-slot').find((event) => event.firingId === third), 15_000, 'the third to wait')).toEqual({ firingId: third, limit: 2 });
    await expect(client.request('watchers.run', { firingId: third })).rejects.toThrow(/already waits for a free run slot/);
    // A window that connects now shows the card waiting, and no run of it.
    const later = await anotherClient(server);
    const waitingCard = (await later.request('watchers.cards', {})).cards.find((card) => card.firingId === third);
    expect(waitingCard).toEqual({ firingId: third, name: 'third', action: 'notify', reason: expect.any(String), waitsForSlot: { limit: 2 } });
    expect(model.requests).toHaveLength(2);

    await later.request('watchers.answer', { firingId: first, requestId: firstWaits.asking[0]!.id, decision: 'deny' });
    // A run with a denied step ends as failed, with its answer.
    expect((await runView(later, first, (view) => view.state === 'failed', 'the first run to end')).answer).toContain('FIRST-DONE');
    const thirdDone = await runView(later, third, (view) => view.state === 'done', 'the third run, started when the first ended');
    expect(thirdDone.answer).toContain('THIRD-DONE');
    expect((await later.request('watchers.cards', {})).cards.find((card) => card.firingId === third)?.waitsForSlot).toBeUndefined();
  });

  it('wait_limit: a step nobody answers is denied by the watcher, the run ends with a message on its card and in the audit', async () => {
    const { client, model, paneId, engine, home } = await open({ selfCommand: SELF, desktop: recordingDesktop(), configToml: '[watchers]\nwait_limit = "2s"\n' });
    const auditFile = watcherFile(engine, blockWatcher('failures', 'ls /no-such*', 'auto'));
    await client.waitFor(() => engine.watchers!.view().watchers.length === 1, 15_000, 'the watcher to load');
    model.script({ parts: [run('y1', 'touch never-answered.txt')] });

    await client.runCommand(paneId, 'ls /no-such-unanswered');
    const fired = await client.waitFor(() => client.eventsOf('watcher.fired')[0], 15_000, 'the firing');
    await runView(client, fired.firingId, (view) => view.asking.length > 0, 'the step waits');
    const ended = await runView(client, fired.firingId, (view) => view.state === 'failed', 'the run to end when nobody answered');
    expect(ended.reason).toBe("Nobody answered `touch never-answered.txt` within 2s (the watchers' wait_limit): it was denied and the run ended.");
    expect(ended.steps.find((step) => step.command === 'touch never-answered.txt')?.status).toBe('denied');
    expect(ended.asking).toEqual([]);
    expect(existsSync(join(home, 'never-answered.txt'))).toBe(false);

    type Line = { event: string; command?: string; decidedBy?: { kind: string; rule: string }; reason?: string; watcher?: string };
    const denied = await client.waitFor(
      () => readFileSync(auditFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line).find((line) => line.event === 'denied' && line.command === 'touch never-answered.txt'),
      15_000,
      'the audit line of the timed-out step',
    );
    expect(denied).toMatchObject({ decidedBy: { kind: 'headless', rule: 'No answer within 2s (watcher:failures)' }, reason: ended.reason, watcher: 'failures' });
    // The run ended at the denial: the model was not asked again.
    expect(model.requests).toHaveLength(1);
    expect(await verifyAuditLog(auditFile)).toMatchObject({ ok: true });
  });
});
