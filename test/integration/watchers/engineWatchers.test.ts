import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProjectTrust } from '../../../src/main/watchers/projectTrust';
import { tandemPaths } from '../../../src/main/settings/paths';
import { useEngineClient } from '../../support/engineClient';

const engines = useEngineClient();

const BLOCK_WATCHER = `
[[watcher]]
name = "failures"
trigger = "block"
command = "ls /no-such*"
exit = "!=0"
debounce = "0ms"
max_runs_per_hour = 60
instruction = "# explain the failure"
`;

async function openWithBash() {
  const opened = await engines.open({ shell: '/bin/bash', configToml: '' });
  const paths = tandemPaths({ HOME: opened.engine.home, XDG_CONFIG_HOME: join(opened.engine.home, '.config'), XDG_DATA_HOME: join(opened.engine.home, '.local/share') });
  return { ...opened, paths, view: () => opened.engine.engine.watchers!.view() };
}

describe('watchers in the engine, with a real bash pane', () => {
  it('a failing block the user ran fires a block watcher; one Tandem typed does not; the firing is audited', async () => {
    const { client, paths, view, engine } = await openWithBash();
    expect(paths.watchersFile).toBe(engine.engine.paths.watchersFile);
    writeFileSync(paths.watchersFile, BLOCK_WATCHER);
    await client.waitFor(() => view().watchers.some((watcher) => watcher.name === 'failures'), 15_000, 'the watcher to load');

    const { paneId } = await client.request('pane.create', { cols: 100, rows: 30 });
    await client.waitForPrompt(paneId);
    // Typed by Tandem (`! cmd` from the panel): never a firing.
    const fired = () => client.eventsOf('watcher.fired');
    await client.request('agent.run', { paneId, command: 'ls /no-such-dir-typed-by-tandem' });
    const typed = await client.waitForBlock(paneId, 'ls /no-such-dir-typed-by-tandem');
    expect(typed.exitCode).not.toBe(0);
    await client.waitForPrompt(paneId, 2);
    // Run by the user: a firing.
    const block = await client.runCommand(paneId, 'ls /no-such-dir-by-user');
    expect(block.exitCode).not.toBe(0);
    await client.waitFor(() => fired().length >= 1, 15_000, 'the firing');
    // A user block that does not match (exit 0, another command) fires nothing: the next matching one is the second firing.
    await client.runCommand(paneId, 'true');
    await client.runCommand(paneId, 'ls /no-such-again');
    await client.waitFor(() => fired().length >= 2, 15_000, 'the second firing');
    expect(fired().map((firing) => firing.reason)).toEqual([
      expect.stringMatching(/^`ls \/no-such-dir-by-user` exited \d+ in pane \d+$/),
      expect.stringMatching(/^`ls \/no-such-again` exited/),
    ]);
    expect(fired()[0]).toMatchObject({ name: 'failures', source: 'user', action: 'notify' });
    const watcher = view().watchers.find((candidate) => candidate.name === 'failures')!;
    expect(watcher.lastFired?.reason).toContain('no-such-again');
    await client.waitFor(() => readFileSync(paths.auditFile, 'utf8').includes('"watcher":"failures"'), 15_000, 'the audit line');
    const audited = readFileSync(paths.auditFile, 'utf8').split('\n').filter((line) => line.includes('watcher-fired')).map((line) => JSON.parse(line));
    expect(audited[0]).toMatchObject({ event: 'watcher-fired', watcher: 'failures', reason: fired()[0]!.reason });
  });

  it('a broken watchers.toml keeps the last good watchers (they still fire) and says where it is wrong; fixed, the new set is in effect', async () => {
    const { client, paths, view } = await openWithBash();
    writeFileSync(paths.watchersFile, BLOCK_WATCHER);
    await client.waitFor(() => view().watchers.length === 1, 15_000, 'the watcher to load');
    writeFileSync(paths.watchersFile, `${BLOCK_WATCHER}\n[[watcher]]\nname = "bad"\ntrigger = "schedule"\ncron = "61 * * * *"\ninstruction = "x"\n`);
    await client.waitFor(() => view().files.find((file) => file.source === 'user')?.error, 15_000, 'the error');
    expect(view().files.find((file) => file.source === 'user')!.error).toMatch(/^\[\[watcher\]\] #2, cron \(line 14\): /);
    expect(view().watchers.map((watcher) => watcher.name)).toEqual(['failures']);

    const { paneId } = await client.request('pane.create', { cols: 100, rows: 30 });
    await client.waitForPrompt(paneId);
    await client.runCommand(paneId, 'ls /no-such-while-broken');
    await client.waitFor(() => client.eventsOf('watcher.fired').length >= 1, 15_000, 'the old watcher to fire');

    writeFileSync(paths.watchersFile, BLOCK_WATCHER.replace('"failures"', '"renamed"'));
    await client.waitFor(() => view().watchers.some((watcher) => watcher.name === 'renamed'), 15_000, 'the fixed file');
    expect(view().files.find((file) => file.source === 'user')!.error).toBeUndefined();
    expect(view().watchers.map((watcher) => watcher.name)).toEqual(['renamed']);
  });

  it('an untrusted project watchers file does nothing until allowed; an edit makes it untrusted again', async () => {
    const { client, paths, view, engine } = await openWithBash();
    const project = join(engine.home, 'proj');
    mkdirSync(join(project, '.tandem'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: project });
    const projectFile = join(project, '.tandem', 'watchers.toml');
    writeFileSync(projectFile, `[[watcher]]\nname = "notes"\ntrigger = "file_change"\npath = "*.txt"\ndebounce = "100ms"\ninstruction = "# summarise the notes"\n`);
    const { paneId } = await client.request('pane.create', { cols: 100, rows: 30, cwd: project });
    await client.waitForPrompt(paneId);
    await client.waitFor(() => view().files.find((file) => file.path === projectFile)?.untrusted, 15_000, 'the project file, untrusted');
    expect(view().watchers).toEqual([]);
    writeFileSync(join(project, 'before.txt'), 'written while untrusted\n');

    new ProjectTrust(paths.watcherTrustFile).allow(projectFile, readFileSync(projectFile, 'utf8'), 'cli');
    await client.waitFor(() => view().watchers.some((watcher) => watcher.name === 'notes'), 15_000, 'the allowed watcher');
    expect(view().files.find((file) => file.path === projectFile)!.untrusted).toBeUndefined();
    // parcel's subscription is made asynchronously: write until a firing names the file.
    for (let attempt = 0; client.eventsOf('watcher.fired').length === 0; attempt++) {
      writeFileSync(join(project, 'after.txt'), `attempt ${attempt}\n`);
      await client.waitFor(() => client.eventsOf('watcher.fired').length > 0, attempt < 20 ? 1_000 : 15_000, 'the project watcher to fire').catch(() => undefined);
      if (attempt > 20) break;
    }
    expect(client.eventsOf('watcher.fired')[0]).toMatchObject({ name: 'notes', source: 'project', reason: 'after.txt changed' });
    expect(client.eventsOf('watcher.fired').some((firing) => firing.reason.includes('before.txt'))).toBe(false);

    appendFileSync(projectFile, '# edited\n');
    await client.waitFor(() => view().files.find((file) => file.path === projectFile)?.untrusted, 15_000, 'untrusted again after the edit');
    expect(view().watchers).toEqual([]);
  });

  it('watchers.setEnabled switches a watcher off and on through the protocol, tells the window, and refuses what is not there', async () => {
    const { client, paths, view } = await openWithBash();
    writeFileSync(paths.watchersFile, BLOCK_WATCHER);
    await client.waitFor(() => view().watchers.length === 1, 15_000, 'the watcher to load');
    await client.waitFor(() => client.eventsOf('watchers.changed').length > 0, 15_000, 'watchers.changed after the load');

    const changedBefore = client.eventsOf('watchers.changed').length;
    const off = await client.request('watchers.setEnabled', { name: 'failures', source: 'user', enabled: false });
    expect(off.watchers.find((watcher) => watcher.name === 'failures')!.enabled).toBe(false);
    expect((await client.request('watchers.list', {})).watchers[0]!.enabled).toBe(false);
    await client.waitFor(() => client.eventsOf('watchers.changed').length > changedBefore, 15_000, 'watchers.changed after the switch');

    // Off: a failing block of the user's fires nothing; a later firing proves the block was seen once it is on again.
    const { paneId } = await client.request('pane.create', { cols: 100, rows: 30 });
    await client.waitForPrompt(paneId);
    await client.runCommand(paneId, 'ls /no-such-while-off');
    const on = await client.request('watchers.setEnabled', { name: 'failures', source: 'user', enabled: true });
    expect(on.watchers[0]!.enabled).toBe(true);
    await client.runCommand(paneId, 'ls /no-such-while-on');
    await client.waitFor(() => client.eventsOf('watcher.fired').length >= 1, 15_000, 'the firing once on');
    expect(client.eventsOf('watcher.fired').map((firing) => firing.reason)).toEqual([expect.stringContaining('no-such-while-on')]);

    await expect(client.request('watchers.setEnabled', { name: 'failures', source: 'project', enabled: false })).rejects.toThrow(/There is no watcher "failures" in a project watchers.toml/);
    await expect(client.request('watchers.setEnabled', { name: 'failures', source: 'user', enabled: 'no' } as never)).rejects.toThrow();
    expect((await client.request('watchers.list', {})).watchers[0]!.enabled).toBe(true);
  });
});
