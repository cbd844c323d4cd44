import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ptyModule, { type IPty } from 'node-pty';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TANDEM_BIN } from '../support/agentCli';
import { waitUntil } from '../support/waitUntil';

// `tandem ssh` run as a user runs it: the built CLI in a real pty, with a stub `ssh` first on
// PATH that shows what it was given and how, so no network is needed.
const STUB = `#!/bin/sh
printf 'argv:'; for a in "$@"; do printf ' [%s]' "$a"; done; printf '\\n'
[ -t 0 ] && [ -t 1 ] && echo 'stdio: a terminal'
trap 'echo interrupted-in-ssh; exit 5' INT
case "$1" in
  --die) kill -TERM $$ ;;
  --read) printf 'say something: '; read -r line; echo "heard: $line"; exit 7 ;;
esac
exit 0
`;

let root: string;
let bin: string;

beforeAll(() => {
  if (!existsSync(join(__dirname, '../../out/main/cli.js'))) throw new Error('tandem ssh tests run the built CLI: run `npm run build` first.');
});
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tandem-ssh-cli-'));
  bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'ssh'), STUB);
  chmodSync(join(bin, 'ssh'), 0o755);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function inPty(args: string[], path = `${bin}:/usr/bin:/bin`): { pty: IPty; output: () => string; exit: Promise<number> } {
  let output = '';
  const pty = ptyModule.spawn(process.execPath, [TANDEM_BIN, 'ssh', ...args], { cols: 120, rows: 30, cwd: root, env: { HOME: root, PATH: path, TERM: 'xterm-256color' } });
  pty.onData((data) => (output += data));
  const exit = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
  return { pty, output: () => output, exit };
}

describe('tandem ssh', () => {
  it('runs the ssh on PATH with every argument unchanged, on the same terminal, and exits with its status', async () => {
    const run = inPty(['--read', '-p', '2222', "o'neil@host", 'echo $HOME; rm -rf "x"']);
    await waitUntil(() => run.output().includes('say something: '), 'the stub to ask for a line');
    run.pty.write('hello there\r');
    expect(await run.exit).toBe(7);
    const output = run.output().replaceAll('\r', '');
    expect(output).toContain(`argv: [--read] [-p] [2222] [o'neil@host] [echo $HOME; rm -rf "x"]\n`);
    expect(output).toContain('stdio: a terminal\n');
    expect(output).toContain('heard: hello there\n');
  });

  it('leaves Ctrl+C to ssh and waits for it, and reports a signal that ended ssh as 128 + its number', async () => {
    const run = inPty(['--read']);
    await waitUntil(() => run.output().includes('say something: '), 'the stub to ask for a line');
    run.pty.write('\x03');
    expect(await run.exit).toBe(5);
    expect(run.output()).toContain('interrupted-in-ssh');

    expect(await inPty(['--die']).exit).toBe(128 + 15);
  });

  it('says so when there is no ssh on PATH (127), without arguments (2), and answers --help', async () => {
    const missing = inPty(['host'], join(root, 'empty'));
    expect(await missing.exit).toBe(127);
    expect(missing.output()).toContain('there is no ssh on PATH');

    const bare = spawnSync(process.execPath, [TANDEM_BIN, 'ssh'], { encoding: 'utf8' });
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain('tandem ssh needs a destination');
    const help = spawnSync(process.execPath, [TANDEM_BIN, 'ssh', '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: tandem ssh \[SSH OPTIONS\] DESTINATION/);
  });

  it('--forget-plain HOST forgets the servers on HOST that refused the bootstrap, and says when there were none', () => {
    const state = join(root, 'state');
    const file = join(state, 'tandem', 'ssh-plain-hosts');
    mkdirSync(join(state, 'tandem'), { recursive: true });
    writeFileSync(file, 'alice@db1:22\t2026-11-29T10:00:00Z\tx\nbob@db1:2200\t2026-11-29T10:00:00Z\tx\ncarol@gw:22\t2026-11-29T10:00:00Z\tx\n');
    const forget = (...args: string[]) => spawnSync(process.execPath, [TANDEM_BIN, 'ssh', '--forget-plain', ...args], { encoding: 'utf8', env: { HOME: root, PATH: '/usr/bin:/bin', XDG_STATE_HOME: state } });
    const forgot = forget('db1');
    expect(forgot.status).toBe(0);
    expect(forgot.stdout).toContain('forgot alice@db1:22, bob@db1:2200');
    expect(readFileSync(file, 'utf8')).not.toContain('db1');
    expect(readFileSync(file, 'utf8')).toContain('carol@gw:22');
    const again = forget('db1');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`db1 is not among the servers Tandem connects to without integration (${file})`);
    expect(forget().status).toBe(2);
  });
});
