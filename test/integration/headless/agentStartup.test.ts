import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAgentCli } from '../../support/agentCli';
import { invalidEvents } from '../../support/agentProtocol';

// What `tandem agent` says at its start about a shell, config.toml or policy.toml it cannot use.

const { setup, start } = useAgentCli();

describe('tandem agent at its start', () => {
  it('--shell naming no program is a usage error (exit 2) that starts nothing, like --cwd', async () => {
    const { model, env } = await setup();
    const agent = start(['--shell', '/no/such/shell', '-c', 'look around'], env, { stdin: 'inherit-closed' });
    expect(await agent.exitCode()).toBe(2);
    expect(agent.stderr).toMatch(/--shell \/no\/such\/shell: \/no\/such\/shell does not exist/);
    expect(agent.stdout).toBe('');
    expect(model.requests).toHaveLength(0);
  }, 60_000);

  it('a config.toml shell that is missing falls back with a notice, which comes after the session line (the first line)', async () => {
    const { model, home, env } = await setup();
    mkdirSync(join(home, '.config/tandem'), { recursive: true });
    writeFileSync(join(home, '.config/tandem/config.toml'), '[shell]\npath = "/no/such/shell"\n');
    model.script({ parts: [{ text: 'Nothing to do.' }] });
    const agent = start(['-c', 'look around'], env, { stdin: 'inherit-closed' });
    expect(await agent.exitCode()).toBe(0);
    expect(invalidEvents(agent.events)).toEqual([]);
    expect(agent.events[0]).toMatchObject({ type: 'session', shell: '/bin/bash' });
    expect(agent.events.find((event) => event.type === 'notice')).toMatchObject({ level: 'warning', message: expect.stringContaining('/no/such/shell') });
    expect(agent.events.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
  }, 60_000);

  it('a config.toml or policy.toml that cannot be used is said in notices after the session line, and the run goes on', async () => {
    const { model, home, env } = await setup();
    mkdirSync(join(home, '.config/tandem'), { recursive: true });
    writeFileSync(join(home, '.config/tandem/config.toml'), '[ai\nmodel = \n');
    writeFileSync(join(home, '.config/tandem/policy.toml'), 'default = [[[\n');
    model.script({ parts: [{ text: 'Nothing to do.' }] });
    const agent = start(['-c', 'look around'], env, { stdin: 'inherit-closed' });
    expect(await agent.exitCode()).toBe(0);
    expect(invalidEvents(agent.events)).toEqual([]);
    expect(agent.events[0]!.type).toBe('session');
    const notices = agent.events.filter((event) => event.type === 'notice').map((event) => event.message);
    expect(notices).toEqual([
      expect.stringMatching(/config\.toml cannot be used, so this run has the default settings: not valid TOML, line 1/),
      expect.stringMatching(/policy\.toml is not valid TOML, line 2/),
    ]);
  }, 60_000);
});
