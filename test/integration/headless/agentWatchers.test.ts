import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tandemPaths } from '../../../src/main/settings/paths';
import { ProjectTrust } from '../../../src/main/watchers/projectTrust';
import { useAgentCli, type AgentEvent } from '../../support/agentCli';

// `tandem agent --watchers DIR` as a server runs it: the built CLI, a real allowed project
// watchers file, a real write in DIR, the run a real `tandem agent --watcher` process talking
// to the scripted model server. Firings and the run's events come out as NDJSON.

const { setup, start } = useAgentCli();
const run = (id: string, command: string) => ({ toolUse: { id, name: 'run_command', input: { command, purpose: `run ${command}` } } });

const PROJECT_WATCHERS = `
[[watcher]]
name = "notes"
trigger = "file_change"
path = "*.txt"
action = "auto"
debounce = "100ms"
max_runs_per_hour = 60
instruction = "# summarise the notes"

[[watcher]]
name = "asker"
trigger = "file_change"
path = "*.md"
action = "ask"
debounce = "100ms"
max_runs_per_hour = 60
instruction = "# review the docs"
`;

describe('tandem agent --watchers', () => {
  it('a write in DIR: watcher-fired, then the run events (GREEN runs, YELLOW refused: nobody is there); an ask watcher is refused; SIGTERM exits 0', async () => {
    const { model, env, home } = await setup();
    const project = join(home, 'proj');
    mkdirSync(join(project, '.tandem'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: project });
    const file = join(project, '.tandem', 'watchers.toml');
    writeFileSync(file, PROJECT_WATCHERS);
    new ProjectTrust(tandemPaths(env).watcherTrustFile).allow(file, readFileSync(file, 'utf8'), 'cli');
    model.script({ parts: [run('g1', 'ls -a')] }, { parts: [run('y1', 'touch made-by-watcher.txt')] }, { parts: [{ text: 'WATCHER-SUMMARY' }] });

    const agent = start(['--watchers', project, '--json'], env, { stdin: 'inherit-closed' });
    const listed = await agent.waitFor((event) => event.type === 'watchers', 'the watchers it runs');
    expect(listed.watchers).toEqual([expect.objectContaining({ name: 'notes', source: 'project', action: 'auto' }), expect.objectContaining({ name: 'asker', action: 'ask' })]);
    // parcel subscribes asynchronously: write until the watcher fires.
    const firedNotes = (event: AgentEvent) => event.type === 'watcher-fired' && event.watcher === 'notes';
    for (let attempt = 0; !agent.events.some(firedNotes) && attempt < 30; attempt++) {
      writeFileSync(join(project, 'today.txt'), `attempt ${attempt}\n`);
      await agent.waitFor(firedNotes, 'the firing', 1_000).catch(() => undefined);
    }
    const fired = await agent.waitFor(firedNotes, 'the firing');
    expect(fired).toMatchObject({ action: 'auto', reason: 'today.txt changed', cwd: project });
    const result = await agent.waitFor((event) => event.type === 'result' && event.watcher === 'notes', 'the run to end', 60_000);
    expect(result).toMatchObject({ result: 'WATCHER-SUMMARY' });
    const runEvents = agent.events.slice(agent.events.indexOf(fired) + 1).filter((event) => event.watcher === 'notes');
    const decided = runEvents.filter((event) => event.type === 'step' && event.phase === 'decided');
    expect(decided.map((event) => [event.command, event.verdict])).toEqual([
      ['ls -a', 'allowed'],
      ['touch made-by-watcher.txt', 'denied'],
    ]);
    expect(decided[1]!.rule).toBe('watcher:notes: steps that would ask are refused');
    expect(existsSync(join(project, 'made-by-watcher.txt'))).toBe(false);
    expect(JSON.stringify(model.requests[0]!.body?.messages)).toContain('today.txt changed');

    // Just after the run, changes in its folder are its own (the settle time): write until the ask watcher fires.
    const isRefused = (event: AgentEvent) => event.type === 'watcher-refused';
    for (let attempt = 0; !agent.events.some(isRefused) && attempt < 30; attempt++) {
      writeFileSync(join(project, 'README.md'), `# docs ${attempt}\n`);
      await agent.waitFor(isRefused, 'the ask watcher refused', 1_000).catch(() => undefined);
    }
    const refused = await agent.waitFor(isRefused, 'the ask watcher refused');
    expect(refused).toMatchObject({ watcher: 'asker', reason: expect.stringMatching(/^nobody to ask/) });
    expect(model.requests).toHaveLength(3);

    agent.child.kill('SIGTERM');
    expect(await agent.exitCode()).toBe(0);
    expect(agent.events.at(-1)).toMatchObject({ type: 'watchers-stopped' });
  }, 120_000);

  it('--watchers with -c is a usage error', async () => {
    const { env } = await setup();
    const agent = start(['--watchers', '-c', 'hi'], env, { stdin: 'inherit-closed' });
    expect(await agent.exitCode()).toBe(2);
    expect(agent.stderr).toContain('--watchers starts its own runs');
  });
});
