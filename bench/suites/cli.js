// 10. The `tandem` command's cold start: the wall time of a whole process (spawn → exit) of
// `node bin/tandem.js --version` and `node bin/tandem.js policy check -- 'ls -la'`, against a
// bare `node -e 0` started the same way in the same rounds (Node's own start is not ours to cut).
// The policy check runs in a throwaway HOME that has a policy.toml, as it has for someone
// writing policies: the gate, the policy layers and the bash grammar, nothing of the engine.
//   - rounds interleave the commands, so a busy neighbour slows all of them alike; one
//     warm-up round (the page cache), then the median of ROUNDS
//   - limits are deltas over the `node -e 0` median: --version may add 50 ms (the launcher
//     and the argument parser, nothing else); policy check 250 ms, room for the gate's modules
//     and the grammar (about 170 ms here) on a loaded machine, while a path that pulls in the
//     engine (+400 ms) or waits for V8 to optimise the grammar (+700 ms) misses it
//   - `audit verify` alongside, as info
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measure } from '../lib/report.js';
import { ROOT } from '../lib/root.js';
import { percentile } from '../lib/stats.js';
import { makeHome, requireBuild } from '../lib/tandem.js';

const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? 9);
const VERSION_LIMIT_MS = 50;
const POLICY_CHECK_LIMIT_MS = 250;
const POLICY = `[approval]
default = "ask"

[approval.shell]
allow_read_only = true
allow_patterns = ["npm test", "npm run *", "git status"]
deny_patterns = ["sudo *", "* --force*"]

[approval.filesystem]
write = ["$CWD/**"]
deny = ["$HOME/.ssh/**"]
`;

export async function cli(report) {
  requireBuild('the cli rows');
  const home = makeHome();
  try {
    writeFileSync(join(home.home, '.config/tandem/policy.toml'), POLICY);
    const tandem = join(ROOT, 'bin/tandem.js');
    const commands = {
      node: { args: ['-e', '0'], expect: (out) => out === '' },
      version: { args: [tandem, '--version'], expect: (out) => out.startsWith('tandem ') },
      policyCheck: { args: [tandem, 'policy', 'check', '--', 'ls -la'], expect: (out) => JSON.parse(out).decision === 'allow' },
      auditVerify: { args: [tandem, 'audit', 'verify'], expect: (out) => out.startsWith('no audit log yet') },
    };
    const times = await measure(report, 'cli: cold start', () => processTimes(commands, { cwd: home.home, env: home.env }));
    if (times) reportTimes(report, times);
  } finally {
    home.cleanup();
  }
}

async function processTimes(commands, options) {
  const times = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  for (let round = -1; round < ROUNDS; round++) {
    for (const [name, { args, expect }] of Object.entries(commands)) {
      const { ms, stdout, stderr, code } = await timedRun(args, options);
      if (code !== 0 || !expect(stdout.trim())) {
        throw new Error(`node ${args.slice(1).join(' ')} exited ${code}: ${(stdout + stderr).trim().slice(0, 300)}`);
      }
      if (round >= 0) times[name].push(ms);
    }
  }
  return times;
}

function timedRun(args, options) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - started, stdout, stderr, code }));
  });
}

function reportTimes(report, times) {
  const median = (name) => percentile(times[name], 50);
  const spread = (name) => `p50 ${median(name).toFixed(0)} ms, min ${Math.min(...times[name]).toFixed(0)}, max ${Math.max(...times[name]).toFixed(0)} over ${times[name].length} runs`;
  const node = median('node');
  report.delta({ name: 'cli: tandem --version, p50', value: median('version'), unit: 'ms', ref: node, refName: 'node -e 0', maxDelta: VERSION_LIMIT_MS, note: spread('version') });
  report.delta({
    name: 'cli: tandem policy check, p50',
    value: median('policyCheck'),
    unit: 'ms',
    ref: node,
    refName: 'node -e 0',
    maxDelta: POLICY_CHECK_LIMIT_MS,
    note: `${spread('policyCheck')}; node -e 0: ${spread('node')}`,
  });
  report.info('cli: tandem audit verify, p50', median('auditVerify'), 'ms', `no audit log yet; ${spread('auditVerify')}`);
}
