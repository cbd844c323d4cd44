import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpawnPolicy, refusedByParent } from '../../src/main/agent/children/childPolicy';
import type { GateDecision } from '../../src/main/safety/approval/approvalGate';
import { createApprovalGate } from '../../src/main/safety/approval/gateSetup';
import { tandemPaths } from '../../src/main/settings/paths';

// Permissions only narrow: over generated policies, a child agent (the parent's policy files,
// the parent's run layers, and the spawn's own policy on top) never allows a command its parent
// would ask about or refuse, and never lets through what the parent refuses. The gates are the
// real ones over real files; the commands are classified by the real shell parser.

const PATTERNS = ['rm *', 'rm -rf build', 'git *', 'git push*', 'curl *', 'ls *', 'cat *', 'echo *', 'make *', 'npm test', 'sudo *', 'touch *'];
const COMMANDS = ['ls -la', 'rm -rf build', 'rm -rf ~', 'git status', 'git push origin main', 'curl https://example.com', 'cat .env', 'echo hi > out.txt', 'make all', 'npm test', 'sudo rm -rf /tmp/x', 'touch new.txt', 'cat README.md'];
const STRICTNESS: Record<GateDecision['decision'], number> = { allow: 0, ask: 1, deny: 2 };

// Often unset: a layer that says nothing about a command has no say, which is where a child's own allow could widen.
const mode = fc.constantFrom<('ask' | 'allow' | 'deny' | undefined)[]>(undefined, undefined, 'ask', 'allow', 'deny');
const patterns = fc.subarray(PATTERNS, { maxLength: 4 });
const policy = fc.record(
  {
    default: mode,
    shell: fc.record({ mode, allow_read_only: fc.boolean(), allow_patterns: patterns, deny_patterns: patterns }, { requiredKeys: [] }),
    network: fc.record({ mode, allow_hosts: fc.subarray(['example.com', 'github.com'], { maxLength: 2 }) }, { requiredKeys: [] }),
    filesystem: fc.record({ write: fc.subarray(['./**', '/tmp/**'], { maxLength: 2 }), deny: fc.subarray(['**/.env', '~/.ssh/**'], { maxLength: 2 }) }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);
const defined = (value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).flatMap(([key, inner]) => (inner === undefined ? [] : [[key, defined(inner)]]))) : value;
const toml = (approval: object): string => stringify({ approval: defined(approval) as Record<string, unknown> });

let root: string;
let home: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
let files = 0;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tandem-narrowing-'));
  home = join(root, 'home');
  cwd = join(home, 'proj');
  mkdirSync(cwd, { recursive: true });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A gate over a system policy, a user policy and run layers, each in files of its own. */
function gateFor(system: object, user: object, runLayers: string[]) {
  const dir = join(root, `case-${++files}`);
  env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), XDG_STATE_HOME: join(dir, 'state') };
  const paths = tandemPaths(env);
  mkdirSync(paths.configDir, { recursive: true });
  mkdirSync(join(dir, 'etc'), { recursive: true });
  const systemPolicyFile = join(dir, 'etc', 'policy.toml');
  writeFileSync(systemPolicyFile, toml(system));
  writeFileSync(join(paths.configDir, 'policy.toml'), toml(user));
  return { gate: createApprovalGate(paths, env, { systemPolicyFile, runPolicyFiles: runLayers }), systemPolicyFile, paths };
}

function runLayer(name: string, approval: object): string {
  const file = join(root, `${name}-${++files}.toml`);
  writeFileSync(file, toml(approval));
  return file;
}

describe('child agent policies only narrow', () => {
  it('never allow a command the parent asks about or refuses (fast-check over generated policies)', async () => {
    await fc.assert(
      fc.asyncProperty(policy, policy, fc.option(policy, { nil: undefined }), policy, async (system, user, parentRun, spawn) => {
        const parentLayers = parentRun ? [runLayer('parent-run', parentRun)] : [];
        const parent = gateFor(system, user, parentLayers);
        const childDir = join(root, `child-${++files}`);
        mkdirSync(childDir);
        // The child reads the same user and system files, with its parent's run layers and the spawn's policy after them.
        const childGate = createApprovalGate(parent.paths, env, { systemPolicyFile: parent.systemPolicyFile, runPolicyFiles: [...parentLayers, runLayer('spawn', spawn)] });
        for (const command of COMMANDS) {
          const proposed = { command, purpose: 'p', cwd, conversationId: 'c' };
          const [before, after] = await Promise.all([parent.gate.decide(proposed), childGate.decide(proposed)]);
          const context = `${command}\nparent: ${before.decision} (${before.rule})\nchild: ${after.decision} (${after.rule})`;
          expect(STRICTNESS[after.decision], context).toBeGreaterThanOrEqual(STRICTNESS[before.decision]);
          if (before.blocked) expect(after.blocked || after.decision === 'deny', context).toBe(true);
        }
      }),
      { numRuns: 80 },
    );
  }, 240_000);

  it('refuses before it starts a spawn whose policy asks to allow what the parent denies; one that only asks is not refused', async () => {
    const parent = gateFor({}, { shell: { deny_patterns: ['rm *'], mode: 'ask' } }, []);
    const verdict = (command: string) => parent.gate.policyVerdict(command, cwd);
    const asksForRm = readSpawnPolicy('[approval.shell]\nallow_patterns = ["rm -rf *"]', cwd);
    expect(asksForRm.ok).toBe(true);
    if (!asksForRm.ok) return;
    expect(await refusedByParent(asksForRm.policy.asked, verdict)).toMatch(/^the child asked to be allowed "rm -rf \*", which this agent's policy denies \(policy .*deny_patterns "rm \*"\)/);
    const asksForMake = readSpawnPolicy('[approval.shell]\nallow_patterns = ["make *"]', cwd);
    if (!asksForMake.ok) throw new Error(asksForMake.error);
    expect(await refusedByParent(asksForMake.policy.asked, verdict)).toBeUndefined();
    // The child's layer keeps nothing that could allow: its allow patterns are dropped and named.
    expect(asksForMake.policy.layer.policy?.approval?.shell?.allow_patterns).toBeUndefined();
    expect(asksForMake.policy.layer.ignored).toContain('[approval.shell].allow_patterns');
  }, 60_000);

  it('an agent cannot change its own run policy files (a child cannot loosen what it was given)', async () => {
    const layer = runLayer('spawn', { shell: { deny_patterns: ['git push*'] } });
    const child = gateFor({}, { default: 'allow' }, [layer]);
    for (const command of [`echo '' > ${layer}`, `rm ${layer}`, `sed -i d ${layer}`]) {
      const decision = await child.gate.decide({ command, purpose: 'p', cwd, conversationId: 'c' });
      expect(decision, command).toMatchObject({ decision: 'deny', decidedBy: 'builtin' });
      expect(decision.rule).toContain("Tandem's own files");
    }
  }, 60_000);

  it('names a broken spawn policy instead of starting a child that would ask for everything', () => {
    const broken = readSpawnPolicy('[approval.shell]\nallow_pattern = ["x"]', cwd);
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error).toMatch(/its policy is not usable: .*allow_pattern/);
    const missing = readSpawnPolicy('no-such-policy.toml', cwd);
    expect(missing).toEqual({ ok: false, error: `the policy file ${join(cwd, 'no-such-policy.toml')} does not exist` });
  });
});
