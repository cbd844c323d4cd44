// ssh with Tandem's integration vs plain (issue 28 "Bench"; docs/ssh.md "What it costs"). A
// private sshd on 127.0.0.1 (test/support/sshServer.ts, as the integration tests start it) and
// `tandem web` with a Node client: the pane types `ssh ARGS` (the wrapper: decide.sh's
// `ssh -G`, the bootstrap, the request answered, the remote bash reading the integration) or
// `command ssh ARGS` (plain), in turn, and the time from the Enter to the remote prompt on the
// screen is taken; `exit` between rounds. Also the bytes the bootstrap sends: the remote
// command and what the engine types in answer, per remote shell.
import { writeFileSync, chownSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EngineClient } from '../lib/engineClient.js';
import { importEngineModules } from '../lib/engineModules.js';
import { ROOT } from '../lib/root.js';
import { summary } from '../lib/stats.js';
import { startTandem } from '../lib/tandem.js';

const ROUNDS = Number(process.env.BENCH_SSH_ROUNDS ?? 10);
/** Issue 28: the integration may add this much to the time until the remote prompt. */
const LIMIT_MS = 100;
const REMOTE_PROMPT = 'bench-remote$ ';
const LOCAL_PROMPT = '$ ';
const TIMEOUT_MS = 30_000;

const stripOsc = (text) => text.replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '');
const fmt = (s) => `p50 ${s.p50.toFixed(0)} / p95 ${s.p95.toFixed(0)} / max ${s.max.toFixed(0)} ms (n=${s.n})`;
const quote = (word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

export async function ssh(report) {
  const engine = await importEngineModules('ssh', {
    sshServer: 'test/support/sshServer.ts',
    remoteCommand: 'src/main/ssh/remoteCommand.ts',
    payload: 'src/main/ssh/payload.ts',
  });
  bytesRows(report, engine);
  // The test user (its own prompt, nothing of this machine's user's startup files) needs root.
  const skip = engine.sshServer.sshUsersSkipReason();
  if (skip) {
    report.info(`ssh: Enter → remote prompt, integrated vs plain (skipped: ${skip})`, 'skipped', '');
    return;
  }
  const server = await engine.sshServer.startSshServer({ users: [{ shell: '/usr/bin/bash' }] });
  const user = server.users[0];
  let tandem;
  let client;
  try {
    // The same short prompt for both ways in (a login bash reads .profile, which reads .bashrc).
    const rc = join(user.home, '.bashrc');
    writeFileSync(rc, `PS1='${REMOTE_PROMPT}'\n`);
    const { uid, gid } = statSync(user.home);
    chownSync(rc, uid, gid);
    tandem = await startTandem();
    client = await EngineClient.connect(tandem);
    let screen = '';
    client.onOutput = (_, bytes) => (screen += bytes.toString('utf8'));
    await client.request('hello', {});
    const { paneId } = await client.request('pane.create', { cols: 160, rows: 40 });
    const until = async (what, test) => {
      const deadline = Date.now() + TIMEOUT_MS;
      while (!test(stripOsc(screen))) {
        if (Date.now() > deadline) throw new Error(`no ${what} within ${TIMEOUT_MS / 1000} s; screen ends: ${JSON.stringify(stripOsc(screen).slice(-300))}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };
    await until('local prompt', (text) => text.endsWith(LOCAL_PROMPT));
    const args = server.loginArgs(user.name).map(quote).join(' ');
    const lines = { integrated: `ssh ${args}`, plain: `command ssh ${args}` };
    const samples = { integrated: [], plain: [] };
    // A warm-up of each (the host key is learned on the first), then rounds in turn, the order alternating.
    for (let round = -1; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['plain', 'integrated'] : ['integrated', 'plain'];
      for (const way of order) {
        screen = '';
        const started = performance.now();
        client.type(paneId, `${lines[way]}\r`);
        await until(`remote prompt (${way})`, (text) => text.endsWith(REMOTE_PROMPT));
        const ms = performance.now() - started;
        // The integrated way must have asked for the integration (and the plain one not), or the rows compare nothing.
        if (screen.includes('\x1b]6973;ssh;request;') !== (way === 'integrated')) throw new Error(`the ${way} ssh ${way === 'integrated' ? 'never asked for' : 'asked for'} the integration`);
        if (round >= 0) samples[way].push(ms);
        screen = '';
        client.type(paneId, 'exit\r');
        await until('local prompt after exit', (text) => text.endsWith(LOCAL_PROMPT));
      }
    }
    const integrated = summary(samples.integrated);
    const plain = summary(samples.plain);
    const note = `integrated ${fmt(integrated)}; plain (\`command ssh\`) ${fmt(plain)}; a bash user on a loopback sshd, ${ROUNDS} rounds each, alternating`;
    report.delta({ name: 'ssh: Enter → remote prompt, integrated vs plain, p50', value: integrated.p50, unit: 'ms', ref: plain.p50, refName: 'plain ssh', maxDelta: LIMIT_MS, note });
    // The target is on the typical connection; the p95 shows the spread (on a busy machine, mostly other work).
    report.info('ssh: Enter → remote prompt, integrated minus plain, p95', integrated.p95 - plain.p95, 'ms');
  } finally {
    client?.close();
    await tandem?.stop();
    await server.stop();
  }
}

/** What one connection sends: the remote command (stage 0 and the id) and the payload typed for each shell. */
function bytesRows(report, engine) {
  const assets = join(ROOT, 'assets/shell-integration');
  const command = Buffer.byteLength(`${engine.remoteCommand.buildStage0(engine.remoteCommand.stage1Text(assets))} 0123456789abcdef`);
  const nonce = 'f'.repeat(32);
  const typed = Object.fromEntries(['bash', 'zsh', 'fish'].map((shell) => [shell, Buffer.byteLength(engine.payload.payloadText(engine.payload.payloadArchive(assets, nonce, `/usr/bin/${shell}`)))]));
  report.absolute({ name: 'ssh: bootstrap remote command', value: command, unit: 'B', limit: engine.remoteCommand.STAGE0_LIMIT, orEqual: true, note: "stage 0 with the connection id; Dropbear takes 9,000 bytes of command" });
  report.info('ssh: bytes typed in answer (bash / zsh / fish)', `${typed.bash} / ${typed.zsh} / ${typed.fish}`, 'B');
}
