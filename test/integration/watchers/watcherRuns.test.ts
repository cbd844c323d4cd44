import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyAuditLog } from '../../../src/main/safety/audit/auditVerify';
import { useAgentEngine } from '../../support/agentEngine';
import { recordingDesktop, run, runView, SELF, watcherFile } from './watcherRunSupport';

// What a watcher's firing does, end to end: a real engine with a real bash pane, the watcher's
// run a real `tandem agent --parent` child in its own shell, the real SDK against the scripted
// model server. Only the desktop notification (the edge of the world) is recorded instead of shown.

const open = useAgentEngine();
const blockWatcher = (action: string) => `
[[watcher]]
name = "failures"
trigger = "block"
command = "ls /no-such*"
exit = "!=0"
action = "${action}"
debounce = "0ms"
max_runs_per_hour = 60
instruction = "# explain the failure"
`;

describe('what a watcher firing does', () => {
  it('auto: a failing user command fires it; GREEN runs in the watcher own shell, YELLOW waits as a card (not refused), the user pane gets nothing typed', async () => {
    const desktop = recordingDesktop();
    const { client, model, paneId, home, engine } = await open({ selfCommand: SELF, desktop });
    const auditFile = watcherFile(engine, blockWatcher('auto'));
    await client.waitFor(() => engine.watchers!.view().watchers.length === 1, 15_000, 'the watcher to load');
    model.script({ parts: [run('g1', 'ls -a')] }, { parts: [run('y1', 'touch made-by-watcher.txt')] }, { parts: [{ text: 'WATCHER-RUN-DONE' }] });

    await client.runCommand(paneId, 'ls /no-such-dir-by-user');
    const fired = await client.waitFor(() => client.eventsOf('watcher.fired')[0], 15_000, 'the firing');
    expect(fired).toMatchObject({ name: 'failures', action: 'auto', firingId: expect.any(String) });

    const green = await runView(client, fired.firingId, (view) => view.steps.some((step) => step.command === 'ls -a' && step.status === 'done'), 'the GREEN step ran');
    expect(green.steps.find((step) => step.command === 'ls -a')!.exitCode).toBe(0);
    const waiting = await runView(client, fired.firingId, (view) => view.asking.some((asking) => asking.command === 'touch made-by-watcher.txt'), 'the YELLOW step waits');
    expect(waiting.state).toBe('running');
    expect(waiting.steps.some((step) => step.status === 'denied')).toBe(false);
    expect(existsSync(join(home, 'made-by-watcher.txt'))).toBe(false);
    await client.waitFor(() => desktop.notifications.some((note) => note.title === 'Watcher failures waits for you'), 15_000, 'the waiting notification');
    // The model was told the instruction and why the watcher fired.
    expect(JSON.stringify(model.requests[0]!.body?.messages)).toContain('explain the failure');
    expect(JSON.stringify(model.requests[0]!.body?.messages)).toContain('no-such-dir-by-user');

    await client.request('watchers.answer', { firingId: fired.firingId, requestId: waiting.asking[0]!.id, decision: 'allow' });
    const done = await runView(client, fired.firingId, (view) => view.state === 'done', 'the run to end');
    expect(done.answer).toContain('WATCHER-RUN-DONE');
    expect(existsSync(join(home, 'made-by-watcher.txt'))).toBe(true);

    // The user's pane saw only the user's own command: nothing was typed there.
    const blocks = await client.request('pane.blocks', { paneId });
    expect(blocks.map((block) => block.command)).toEqual(['ls /no-such-dir-by-user']);
    // Decisions of the run name the watcher (the child writes its audit lines as it goes).
    type Line = { event: string; command?: string; decidedBy?: { kind: string; rule: string } };
    const approved = (command: string) => readFileSync(auditFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line).find((line) => line.event === 'approved' && line.command === command);
    const touched = await client.waitFor(() => approved('touch made-by-watcher.txt'), 15_000, 'the audit line of the approved step');
    expect(touched.decidedBy).toEqual({ kind: 'person', rule: 'Allow once (watcher:failures)' });
    expect(approved('ls -a')!.decidedBy).toEqual({ kind: 'headless', rule: 'GREEN: runs without asking (watcher:failures)' });
    // The engine and the run's process wrote one chain: it verifies.
    expect(await verifyAuditLog(auditFile)).toMatchObject({ ok: true });
  });

  it('notify: a desktop notification and a card; Run starts the run, Dismiss drops the firing', async () => {
    const desktop = recordingDesktop();
    const { client, model, paneId, home, engine } = await open({ selfCommand: SELF, desktop });
    watcherFile(engine, blockWatcher('notify'));
    await client.waitFor(() => engine.watchers!.view().watchers.length === 1, 15_000, 'the watcher to load');
    model.script({ parts: [{ text: 'NOTIFY-RUN-DONE' }] }, { parts: [run('a1', 'touch asked.txt')] });

    await client.runCommand(paneId, 'ls /no-such-first');
    const first = await client.waitFor(() => client.eventsOf('watcher.fired')[0], 15_000, 'the firing');
    expect(first.action).toBe('notify');
    await client.waitFor(() => desktop.notifications.find((note) => note.title === 'Watcher failures fired'), 15_000, 'the notification');
    expect(desktop.notifications[0]!.body).toMatch(/^`ls \/no-such-first` exited/);
    expect(client.eventsOf('watcher.run')).toEqual([]);
    expect(model.requests).toHaveLength(0);

    await client.request('watchers.run', { firingId: first.firingId });
    const done = await runView(client, first.firingId, (view) => view.state === 'done', 'the run started by Run');
    expect(done.answer).toContain('NOTIFY-RUN-DONE');
    await expect(client.request('watchers.run', { firingId: first.firingId })).rejects.toThrow(/already started/);

    await client.runCommand(paneId, 'ls /no-such-second');
    const second = await client.waitFor(() => client.eventsOf('watcher.fired')[1], 15_000, 'the second firing');
    await client.request('watchers.dismiss', { firingId: second.firingId });
    await expect(client.request('watchers.run', { firingId: second.firingId })).rejects.toThrow(/gone/);
    expect(model.requests).toHaveLength(1);
    await expect(client.request('watchers.run', { firingId: 'x'.repeat(65) })).rejects.toThrow();

    // Dismissing a run that waits stops it: its card goes and stays gone once the process has ended.
    await client.runCommand(paneId, 'ls /no-such-third');
    const third = await client.waitFor(() => client.eventsOf('watcher.fired')[2], 15_000, 'the third firing');
    await client.request('watchers.run', { firingId: third.firingId });
    const waiting = await runView(client, third.firingId, (view) => view.asking.length > 0 && view.pid !== undefined, 'the ask run waits');
    expect(waiting.asking[0]!.command).toBe('touch asked.txt');
    await client.request('watchers.dismiss', { firingId: third.firingId });
    const alive = () => {
      try {
        process.kill(waiting.pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    await client.waitFor(() => !alive(), 15_000, 'the run process to end');
    await client.waitFor(() => client.eventsOf('watcher.run').filter((event) => event.firingId === third.firingId).pop()?.run === null, 15_000, 'the card to go');
    expect(existsSync(join(home, 'asked.txt'))).toBe(false);
  });

  it("loops: the files a watcher run writes fire no watcher, its own or another's", async () => {
    const desktop = recordingDesktop();
    const { client, model, home, engine } = await open({ selfCommand: SELF, desktop });
    const project = join(home, 'proj');
    mkdirSync(join(project, 'a'), { recursive: true });
    watcherFile(
      engine,
      `
[[watcher]]
name = "writer"
trigger = "file_change"
cwd = "proj/a"
path = "*.txt"
action = "auto"
debounce = "100ms"
max_runs_per_hour = 60
instruction = "# write b.txt"

[[watcher]]
name = "observer"
trigger = "file_change"
cwd = "proj"
path = "**/*.txt"
debounce = "100ms"
max_runs_per_hour = 60
instruction = "# note it"
`,
    );
    await client.waitFor(() => engine.watchers!.view().watchers.length === 2, 15_000, 'the watchers to load');
    model.script({ parts: [run('w1', 'touch b.txt')] }, { parts: [{ text: 'WROTE-B' }] });
    // parcel subscribes asynchronously: write until the writer fires.
    for (let attempt = 0; !client.eventsOf('watcher.fired').some((firing) => firing.name === 'writer') && attempt < 30; attempt++) {
      writeFileSync(join(project, 'a', 'user.txt'), `attempt ${attempt}\n`);
      await client.waitFor(() => client.eventsOf('watcher.fired').some((firing) => firing.name === 'writer'), 1_000, 'the writer').catch(() => undefined);
    }
    const writer = client.eventsOf('watcher.fired').find((firing) => firing.name === 'writer')!;
    expect(writer.reason).toBe('user.txt changed');
    const asking = await runView(client, writer.firingId, (view) => view.asking.length > 0, 'the touch step waits');
    await client.request('watchers.answer', { firingId: writer.firingId, requestId: asking.asking[0]!.id, decision: 'allow' });
    await runView(client, writer.firingId, (view) => view.state === 'done', 'the run to end');
    expect(existsSync(join(project, 'a', 'b.txt'))).toBe(true);

    // After the run and its settle time, a write of the user's still fires: the observer names it, and never b.txt.
    const before = client.eventsOf('watcher.fired').filter((firing) => firing.name === 'observer').length;
    const settledAt = Date.now() + 2_000;
    await client.waitFor(() => Date.now() > settledAt, 10_000, 'the settle time to pass');
    writeFileSync(join(project, 'sentinel.txt'), 'by the user\n');
    await client.waitFor(() => client.eventsOf('watcher.fired').some((firing) => firing.name === 'observer' && firing.reason.includes('sentinel.txt')), 15_000, 'the observer on the sentinel');
    const fired = client.eventsOf('watcher.fired');
    expect(fired.filter((firing) => firing.reason.includes('b.txt'))).toEqual([]);
    expect(fired.filter((firing) => firing.name === 'writer')).toHaveLength(1);
    expect(fired.filter((firing) => firing.name === 'observer').slice(before).map((firing) => firing.reason)).toEqual(['sentinel.txt changed']);
  });
});
