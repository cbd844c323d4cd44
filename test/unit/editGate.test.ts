import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalGate, GateDecision } from '../../src/main/safety/approval/approvalGate';
import { createApprovalGate } from '../../src/main/safety/approval/gateSetup';
import { tandemPaths, type TandemPaths } from '../../src/main/settings/paths';

// A real gate over a fresh home (XDG dirs under it) and a system policy file of its own.
let root: string;
let home: string;
let cwd: string;
let paths: TandemPaths;
let gate: ApprovalGate;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tandem-edit-gate-'));
  home = join(root, 'home');
  cwd = join(home, 'proj');
  mkdirSync(cwd, { recursive: true });
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_STATE_HOME: join(home, '.local', 'state') };
  paths = tandemPaths(env);
  mkdirSync(paths.configDir, { recursive: true });
  gate = createApprovalGate(paths, env, { systemPolicyFile: join(root, 'etc', 'tandem', 'policy.toml'), hookTimeoutMs: 10_000 });
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const decideEdit = (path: string, where = cwd): Promise<GateDecision> => gate.decideEdit({ tool: 'edit_file', path, command: `edit_file ${path}`, cwd: where });

describe('the gate on file edits', () => {
  it('asks (YELLOW) for a file in the pane\'s cwd by default', async () => {
    const decision = await decideEdit(join(cwd, 'src', 'app.ts'));
    expect(decision).toMatchObject({ decision: 'ask', blocked: false, level: 'yellow', rule: 'default: file edits ask (YELLOW)', decidedBy: 'default' });
  });

  it('never lets the agent change Tandem\'s own files, whatever the policy says', async () => {
    writeFileSync(join(paths.configDir, 'policy.toml'), '[approval.filesystem]\nwrite = ["~/**"]\n');
    const decision = await decideEdit(join(paths.configDir, 'policy.toml'), paths.configDir);
    expect(decision.decision).toBe('deny');
    expect(decision.rule).toMatch(/^builtin: the agent may never change Tandem's own files/);
  });

  it('blocks ssh keys and shell startup files (RED), also through a symlink in the project', async () => {
    const bashrc = join(home, '.bashrc');
    expect(await decideEdit(bashrc)).toMatchObject({ decision: 'ask', blocked: true, level: 'red' });
    const linked = await gate.decideEdit({ tool: 'write_file', path: bashrc, linkPath: join(cwd, 'rc'), command: 'write_file rc', cwd });
    expect(linked.blocked).toBe(true);
  });

  it('always asks outside the pane\'s cwd, even when a write glob covers the file', async () => {
    writeFileSync(join(paths.configDir, 'policy.toml'), '[approval.filesystem]\nwrite = ["/tmp/**", "$CWD/**"]\n');
    const decision = await decideEdit('/tmp/elsewhere.txt');
    expect(decision).toMatchObject({ decision: 'ask', decidedBy: 'builtin', personal: true });
    expect(decision.rule).toMatch(/outside the pane's working directory/);
    expect(decision.reasons.join(' ')).toMatch(/outside the pane's working directory/);
  });

  it('applies [approval.filesystem]: deny refuses, write allows inside the cwd', async () => {
    writeFileSync(join(paths.configDir, 'policy.toml'), '[approval.filesystem]\nwrite = ["$CWD/src/**"]\ndeny = ["**/.env"]\n');
    expect(await decideEdit(join(cwd, 'src', 'a.ts'))).toMatchObject({ decision: 'allow', decidedBy: 'policy' });
    expect(await decideEdit(join(cwd, 'README.md'))).toMatchObject({ decision: 'ask' });
    const secret = await decideEdit(join(cwd, '.env'));
    expect(secret.decision).toBe('deny');
    expect(secret.rule).toMatch(/\[approval\.filesystem\] deny "\*\*\/\.env"/);
  });

  it('a broken policy file makes every edit ask', async () => {
    writeFileSync(join(paths.configDir, 'policy.toml'), '[approval.filesystem]\nwrite = ["$CWD/**"]\nbogus = 1\n');
    expect((await decideEdit(join(cwd, 'a.ts'))).decision).toBe('ask');
  });

  it('a session grant covers later edits under the same cwd, not elsewhere', async () => {
    const first = await decideEdit(join(cwd, 'a.ts'));
    gate.grants.grant(first.shape, first.command);
    expect(await decideEdit(join(cwd, 'b', 'c.ts'))).toMatchObject({ decision: 'allow', decidedBy: 'grant' });
    expect((await decideEdit(join(home, 'other', 'c.ts'))).decision).toBe('ask');
  });

  it('pre-exec hooks see edit_file and may deny it', async () => {
    const dir = join(paths.configDir, 'hooks');
    mkdirSync(dir, { recursive: true });
    const hook = join(dir, 'pre-exec.no-edits');
    writeFileSync(hook, `#!/bin/sh\nif grep -q '"tool":"edit_file"'; then echo '{"decision":"deny","reason":"no edits today"}'; fi\n`);
    chmodSync(hook, 0o755);
    const decision = await decideEdit(join(cwd, 'a.ts'));
    expect(decision).toMatchObject({ decision: 'deny', decidedBy: 'hook' });
    expect(decision.rule).toMatch(/no edits today/);
  });
});
