/**
 * The approval gate on a step that runs on another host (docs/ssh.md, "The agent on a remote
 * pane"): only allow_read_only and grants made for that host let it run without asking; RED
 * stays blocked; deny lists and hooks still speak; hooks are told the host.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GateDecision } from '../../src/main/safety/approval/approvalGate';
import type { RemoteHost } from '../../src/main/safety/riskTypes';
import { makeGateHome, type GateHome } from '../support/gateHome';
import { removeDir } from '../integration/harness/shellSession';

const DB1 = { host: 'db1', user: 'deploy' };
let setup: GateHome;

beforeEach(() => {
  setup = makeGateHome('tandem-remote-gate-');
});

afterEach(() => {
  removeDir(setup.root);
});

const policy = (text: string) => writeFileSync(join(setup.paths.configDir, 'policy.toml'), text);
/** `remote` null: the step runs on this machine. */
const decide = (command: string, remote: RemoteHost | null = DB1, cwd = '/srv/app'): Promise<GateDecision> => setup.gate.decide({ command, cwd, purpose: 'test', ...(remote ? { remote } : {}) });

function hook(name: string, body: string): void {
  const dir = join(setup.paths.configDir, 'hooks');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, name), 0o755);
}

describe('the gate on a step on another host', () => {
  it('runs a GREEN step without asking where allow_read_only says so, and says where it runs', async () => {
    policy('[approval.shell]\nallow_read_only = true\n');
    const decision = await decide('uname -a');
    expect(decision).toMatchObject({ decision: 'allow', level: 'green', host: 'db1', decidedBy: 'policy' });
    expect(decision.shape).toBe('uname -a (on db1)');
    expect((await decide('uname -a', null)).host).toBeUndefined();
  });

  it('asks for a step an allow pattern or mode allows on this machine, naming the host and the rule', async () => {
    policy('[approval.shell]\nallow_patterns = ["git status", "make *"]\n');
    expect(await decide('make deploy', null)).toMatchObject({ decision: 'allow' });
    const remote = await decide('make deploy');
    expect(remote).toMatchObject({ decision: 'ask', decidedBy: 'default', host: 'db1', blocked: false });
    expect(remote.rule).toContain('runs on db1 over ssh, where');
    expect(remote.rule).toContain('allow_patterns "make *"');
    policy('[approval]\ndefault = "allow"\n');
    expect(await decide('touch x', null)).toMatchObject({ decision: 'allow' });
    expect(await decide('touch x')).toMatchObject({ decision: 'ask', host: 'db1' });
  });

  it('keeps RED blocked even when a policy names it exactly', async () => {
    policy('[approval.shell]\nallow_patterns = ["rm -rf /var/lib/app"]\n');
    expect(await decide('rm -rf /var/lib/app', null)).toMatchObject({ decision: 'allow', level: 'red' });
    expect(await decide('rm -rf /var/lib/app')).toMatchObject({ decision: 'ask', blocked: true, level: 'red', host: 'db1' });
  });

  it('denies what the deny lists deny, there as here', async () => {
    policy('[approval.shell]\ndeny_patterns = ["terraform *"]\n');
    expect(await decide('terraform apply')).toMatchObject({ decision: 'deny', decidedBy: 'policy', host: 'db1' });
  });

  it('session grants are per host: one made on this machine does not cover the remote step, one made for db1 covers db1 only', async () => {
    const local = await decide('touch x', null);
    setup.gate.grants.grant(local.shape, 'touch x');
    expect(await decide('touch x', null)).toMatchObject({ decision: 'allow', decidedBy: 'grant' });
    const remote = await decide('touch x');
    expect(remote).toMatchObject({ decision: 'ask', host: 'db1' });
    setup.gate.grants.grant(remote.shape, 'touch x');
    expect(await decide('touch x')).toMatchObject({ decision: 'allow', decidedBy: 'grant', host: 'db1' });
    expect(await decide('touch x', { host: 'web2', user: 'deploy' })).toMatchObject({ decision: 'ask', host: 'web2' });
  });

  it("protects the remote user's ssh keys and startup files, not this machine's paths", async () => {
    expect(await decide('echo key >> ~/.ssh/authorized_keys')).toMatchObject({ level: 'red', blocked: true });
    expect(await decide('echo x >> /home/deploy/.bashrc')).toMatchObject({ level: 'red', blocked: true });
    expect((await decide(`echo x >> ${join(setup.home, '.bashrc')}`)).level).not.toBe('red');
  });

  it("takes the home the remote reported ($HOME) over the guess from the user name", async () => {
    const svc = { host: 'db1', user: 'svc', home: '/srv/svc' };
    expect(await decide('echo key >> /srv/svc/.ssh/authorized_keys', svc)).toMatchObject({ level: 'red', blocked: true });
    expect(await decide('echo key >> ~/.ssh/authorized_keys', svc)).toMatchObject({ level: 'red', blocked: true });
    expect((await decide('echo x >> /home/svc/.bashrc', svc)).level).not.toBe('red');
  });

  it('tells hooks the host (null here), runs them in the home folder, and does not let their allow run a remote step', async () => {
    const seen = join(setup.root, 'hook-input');
    hook('pre-exec.10-allow', `cat >>'${seen}'; pwd >>'${seen}'\necho '{"decision":"allow"}'`);
    expect(await decide('touch x', null, setup.root)).toMatchObject({ decision: 'allow', decidedBy: 'hook' });
    const remote = await decide('touch x', DB1, setup.root);
    expect(remote).toMatchObject({ decision: 'ask', decidedBy: 'default', host: 'db1' });
    expect(remote.rule).toContain('runs on db1 over ssh, where hook pre-exec.10-allow does not apply');
    const [localInput, localCwd, remoteInput, remoteCwd] = readFileSync(seen, 'utf8').trim().split('\n');
    expect(JSON.parse(localInput!)).toMatchObject({ host: null, cwd: setup.root });
    expect(localCwd).toBe(setup.root);
    expect(JSON.parse(remoteInput!)).toMatchObject({ host: 'db1', cwd: setup.root });
    // The same path here is another directory: the hook runs in the home folder.
    expect(remoteCwd).not.toBe(setup.root);
  });
});
