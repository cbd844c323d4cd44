// 10. The `tandem` command's cold start: the wall time of a whole process (spawn → exit) of
// `node bin/tandem.js --version`, `agent --version`, `policy check -- 'ls -la'` and `audit verify`,
// against a bare `node -e 0` started the same way in the same rounds (Node's own start is not
// ours to cut). They run in a throwaway HOME that has a policy.toml, as it has for someone
// writing policies, and an audit log of a session (SESSION_ENTRIES) written by the engine's own
// writer; a month's log (MONTH_ENTRIES) is verified alongside, as info.
//   - rounds interleave the commands, so a busy neighbour slows all of them alike; one
//     warm-up round (the page cache), then the median of ROUNDS
//   - limits are deltas over the `node -e 0` median: --version and agent --version may add
//     50 ms (the launcher and the argument parser, nothing else: no agent, engine or SDK);
//     policy check 150 ms, the gate's modules and the bash grammar (110–130 ms on the
//     2-core bench machine), while a path that reads zod, smol-toml and picomatch from
//     node_modules again (+80 ms), pulls in the engine (+400 ms) or waits for V8 to optimise
//     the grammar (+700 ms) misses it; audit verify 100 ms, the verifier and zod (about 55 ms)
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importEngineModules } from '../lib/engineModules.js';
import { measure } from '../lib/report.js';
import { ROOT } from '../lib/root.js';
import { percentile } from '../lib/stats.js';
import { makeHome, requireBuild } from '../lib/tandem.js';

const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? 9);
const VERSION_LIMIT_MS = 50;
const POLICY_CHECK_LIMIT_MS = 150;
const AUDIT_VERIFY_LIMIT_MS = 100;
/** A session: 20 commands, each proposed, approved and run. */
const SESSION_ENTRIES = 60;
/** About a month of an agent used daily. */
const MONTH_ENTRIES = 2_000;
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
    const { auditLog, paths } = await importEngineModules('cli', { auditLog: 'src/main/safety/audit/auditLog.ts', paths: 'src/main/settings/paths.ts' });
    const { auditFile, auditHeadFile } = paths.tandemPaths(home.env);
    await writeAuditLog(auditLog, auditFile, auditHeadFile, SESSION_ENTRIES);
    const monthFile = join(home.home, 'month.jsonl');
    await writeAuditLog(auditLog, monthFile, join(home.home, 'month.head'), MONTH_ENTRIES);
    const tandem = join(ROOT, 'bin/tandem.js');
    const intact = (entries) => (out) => out.startsWith(`audit log intact: ${entries.toLocaleString('en-US')} entries`);
    const commands = {
      node: { args: ['-e', '0'], expect: (out) => out === '' },
      version: { args: [tandem, '--version'], expect: (out) => out.startsWith('tandem ') },
      agentVersion: { args: [tandem, 'agent', '--version'], expect: (out) => out.startsWith('tandem ') },
      policyCheck: { args: [tandem, 'policy', 'check', '--', 'ls -la'], expect: (out) => JSON.parse(out).decision === 'allow' },
      auditVerify: { args: [tandem, 'audit', 'verify'], expect: intact(SESSION_ENTRIES) },
      auditVerifyMonth: { args: [tandem, 'audit', 'verify', '--file', monthFile], expect: intact(MONTH_ENTRIES) },
    };
    const times = await measure(report, 'cli: cold start', () => processTimes(commands, { cwd: home.home, env: home.env }));
    if (times) reportTimes(report, times);
  } finally {
    home.cleanup();
  }
}

/** An intact audit log of `entries` entries (and its head file), by the engine's own AuditLog. */
async function writeAuditLog(auditLog, file, headFile, entries) {
  const log = new auditLog.AuditLog(file, headFile);
  const events = ['proposed', 'approved', 'executed'];
  for (let i = 0; i < entries; i++) {
    const step = Math.floor(i / 3) + 1;
    log.append({
      event: events[i % 3],
      conversation: 'bench',
      step,
      command: `npm test -- --filter case-${step}`,
      cwd: '/home/u/project',
      level: 'yellow',
      decision: 'ask',
      decidedBy: { kind: 'person', rule: 'approved in the sidebar' },
      ...(i % 3 === 2 ? { exitCode: 0, durationMs: 1200 } : {}),
    });
  }
  await log.flush();
  if (log.lastError) throw log.lastError;
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
  const row = (name, key, maxDelta, note) =>
    report.delta({ name, value: median(key), unit: 'ms', ref: node, refName: 'node -e 0', maxDelta, note: note ? `${spread(key)}; ${note}` : spread(key) });
  row('cli: tandem --version, p50', 'version', VERSION_LIMIT_MS);
  row('cli: tandem agent --version, p50', 'agentVersion', VERSION_LIMIT_MS);
  row('cli: tandem policy check, p50', 'policyCheck', POLICY_CHECK_LIMIT_MS, `node -e 0: ${spread('node')}`);
  row(`cli: tandem audit verify, ${SESSION_ENTRIES} entries, p50`, 'auditVerify', AUDIT_VERIFY_LIMIT_MS);
  const month = median('auditVerifyMonth');
  report.info(
    `cli: tandem audit verify, ${MONTH_ENTRIES.toLocaleString('en-US')} entries, p50`,
    month,
    'ms',
    `${spread('auditVerifyMonth')}; ${((month - median('auditVerify')) / (MONTH_ENTRIES - SESSION_ENTRIES) * 1000).toFixed(0)} µs an entry over the session's log`,
  );
}
