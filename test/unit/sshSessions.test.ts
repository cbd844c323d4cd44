import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/shared/blocks';
import { BlockTracker } from '../../src/main/blocks/blockTracker';
import type { Mark, RemoteShellInfo } from '../../src/main/osc/marks';
import { integrationAssetsDir } from '../../src/main/shell/shellLaunch';
import { PAYLOAD_BEGIN, PAYLOAD_END } from '../../src/main/ssh/payload';
import { SshBootstrap } from '../../src/main/ssh/sshBootstrap';

const LOCAL = 'localnonce';
const REMOTE: RemoteShellInfo = { user: 'bob', host: 'db1', os: 'Linux', arch: 'x86_64', shell: '/bin/bash' };
const CONN = '0123456789abcdef';

function setup() {
  const tracker = new BlockTracker(1, LOCAL, true, '/home/me');
  const finished: Block[] = [];
  tracker.onFinished((block) => finished.push(block));
  const typed: string[] = [];
  const notices: string[] = [];
  /** What holds the terminal: ssh, unless a test says otherwise. */
  const foreground = { programs: ['ssh'] };
  const ssh = new SshBootstrap({ tracker, assetsDir: integrationAssetsDir, type: (text) => typed.push(text), notice: (message) => notices.push(message), foreground: () => foreground.programs });
  let offset = 0;
  const feed = (mark: Mark) => {
    offset += 10;
    if (mark.kind === 'ssh-start' || mark.kind === 'ssh-request' || mark.kind === 'ssh-fallback') ssh.handle(mark, offset);
    else tracker.handle(mark, offset);
  };
  /** A full command of the shell with `nonce`. */
  const run = (nonce: string | undefined, commandLine: string, exitCode: number, cwd = '/x') => {
    feed({ kind: 'prompt-start', nonce, cwd });
    feed({ kind: 'command-start', nonce, commandLine, cwd });
    feed({ kind: 'command-end', nonce, exitCode });
  };
  /** The local shell runs `ssh db1`, whose wrapper prints the start mark, and stage 1 asks. */
  const connect = () => {
    feed({ kind: 'prompt-start', nonce: LOCAL, cwd: '/home/me' });
    feed({ kind: 'command-start', nonce: LOCAL, commandLine: 'ssh db1', cwd: '/home/me' });
    feed({ kind: 'ssh-start', nonce: LOCAL, conn: CONN, dest: 'db1' });
    feed({ kind: 'ssh-request', conn: CONN, remote: REMOTE });
  };
  /** The nonce the engine typed in its answer, read back out of the payload's tar. */
  const typedTar = (): string => {
    const text = typed.at(-1)!;
    const base64 = text.split(`${PAYLOAD_BEGIN}\n`)[1]!.split(`\n${PAYLOAD_END}`)[0]!.replace(/\n/g, '');
    return gunzipSync(Buffer.from(base64, 'base64')).toString('latin1');
  };
  const typedNonce = (): string => {
    const tar = typedTar();
    const at = tar.indexOf('n/nonce\0');
    const body = tar.slice(at + 512, at + 512 + 40);
    return /^[0-9a-f]{32}/.exec(body)![0];
  };
  return { tracker, ssh, finished, typed, notices, feed, run, connect, typedNonce, typedTar, foreground };
}

describe('a pane’s session stack (ssh)', () => {
  it('answers a pending request once, then the remote nonce makes blocks with the host, and the local D ends it all', () => {
    const { tracker, finished, typed, feed, run, connect, typedNonce, typedTar } = setup();
    connect();
    expect(typed).toHaveLength(1);
    expect(typed[0]).toMatch(/^\nTANDEM-BEGIN\n[A-Za-z0-9+/=\n]+\nTANDEM-END\n$/);
    const remote = typedNonce();
    expect(remote).not.toBe(LOCAL);
    // Only the remote shell's scripts travel (stage 1 said bash).
    expect(typedTar()).toContain('bash/tandem.bash\0');
    expect(typedTar()).not.toContain('fish/tandem.fish\0');
    expect(tracker.depth).toBe(2);
    expect(tracker.remote).toEqual(REMOTE);

    run(remote, 'cd /tmp && false', 1, '/home/bob');
    expect(finished.at(-1)).toMatchObject({ command: 'cd /tmp && false', exitCode: 1, host: 'db1', user: 'bob', cwd: '/home/bob', trusted: true });
    feed({ kind: 'prompt-start', nonce: remote, cwd: '/tmp' });
    expect(tracker.cwd).toBe('/tmp');
    expect(tracker.state).toBe('PROMPT');

    // `exit`: the local shell's D for `ssh db1` pops the remote shell.
    feed({ kind: 'command-start', nonce: remote, commandLine: 'exit', cwd: '/tmp' });
    feed({ kind: 'command-end', nonce: LOCAL, exitCode: 0 });
    expect(tracker.depth).toBe(1);
    expect(tracker.remote).toBeUndefined();
    const ssh = finished.find((block) => block.command === 'ssh db1')!;
    expect(ssh).toMatchObject({ exitCode: 0, cwd: '/home/me' });
    expect(ssh.host).toBeUndefined();
    const exit = finished.find((block) => block.command === 'exit')!;
    expect(exit.host).toBe('db1');
    expect(exit.exitCode).toBeUndefined();
    run(LOCAL, 'ls', 0, '/home/me');
    expect(finished.at(-1)).toMatchObject({ command: 'ls', exitCode: 0 });
    expect(finished.at(-1)!.host).toBeUndefined();
  });

  it('a remote program’s bare or stale OSC 133 makes no block and is counted', () => {
    const { tracker, finished, run, feed, connect, typedNonce } = setup();
    connect();
    const remote = typedNonce();
    feed({ kind: 'prompt-start', nonce: remote, cwd: '/home/bob' });
    const before = finished.length;
    const untrusted = tracker.untrustedMarkCount;
    // printf '\e]133;A\a' and friends at the remote prompt; then a made-up nonce.
    run(undefined, 'forged', 0);
    run('notanonce', 'forged', 0);
    expect(finished.length).toBe(before);
    expect(tracker.untrustedMarkCount).toBe(untrusted + 6);
    expect(tracker.depth).toBe(2);

    // After the connection ended, the remote nonce is stale: ignored, not a block.
    feed({ kind: 'command-end', nonce: LOCAL, exitCode: 0 });
    expect(tracker.depth).toBe(1);
    const after = finished.length;
    run(remote, 'stale', 0);
    expect(finished.length).toBe(after);
  });

  it('ignores requests for unknown, reused or ended connections and starts without the top nonce', () => {
    const { tracker, ssh, typed, feed, connect } = setup();
    feed({ kind: 'ssh-request', conn: CONN, remote: REMOTE });
    expect(typed).toHaveLength(0);
    connect();
    expect(typed).toHaveLength(1);
    // The same id again (a replay from the remote side): no second answer, no second shell.
    feed({ kind: 'ssh-request', conn: CONN, remote: REMOTE });
    expect(typed).toHaveLength(1);
    expect(tracker.depth).toBe(2);
    feed({ kind: 'command-end', nonce: LOCAL, exitCode: 255 });

    // A start mark without the top shell's nonce (a program printing one) binds nothing.
    const other = 'fedcba9876543210';
    feed({ kind: 'prompt-start', nonce: LOCAL });
    feed({ kind: 'command-start', nonce: LOCAL, commandLine: 'cat evil' });
    feed({ kind: 'ssh-start', nonce: 'guess', conn: other, dest: 'x' });
    feed({ kind: 'ssh-request', conn: other, remote: REMOTE });
    expect(typed).toHaveLength(1);

    // A start whose ssh block ended before the request came: too late.
    const late = 'aaaaaaaaaaaaaaaa';
    feed({ kind: 'ssh-start', nonce: LOCAL, conn: late, dest: 'x' });
    feed({ kind: 'command-end', nonce: LOCAL, exitCode: 255 });
    feed({ kind: 'ssh-request', conn: late, remote: REMOTE });
    expect(typed).toHaveLength(1);
    expect(ssh.ignoredCount).toBe(5);
  });

  it('a fallback says why in one notice and leaves the local blocks in charge', () => {
    const { tracker, notices, feed } = setup();
    feed({ kind: 'prompt-start', nonce: LOCAL });
    feed({ kind: 'command-start', nonce: LOCAL, commandLine: 'ssh dash@db1' });
    feed({ kind: 'ssh-start', nonce: LOCAL, conn: CONN, dest: 'dash@db1' });
    feed({ kind: 'ssh-fallback', conn: CONN, reason: 'shell', host: 'db1' });
    feed({ kind: 'ssh-fallback', conn: CONN, reason: 'shell', host: 'db1' });
    expect(notices).toEqual(['No Tandem integration on db1: the login shell is not bash, zsh or fish; a plain shell runs there, without blocks.']);
    expect(tracker.depth).toBe(1);
    expect(tracker.state).toBe('EXECUTING');
  });

  it('a fallback after the answer (unpacking failed there) takes the remote shell off the stack', () => {
    const { tracker, notices, feed, connect } = setup();
    connect();
    expect(tracker.depth).toBe(2);
    feed({ kind: 'ssh-fallback', conn: CONN, reason: 'unpack', host: '' });
    expect(tracker.depth).toBe(1);
    expect(tracker.running?.command).toBe('ssh db1');
    expect(notices).toHaveLength(1);
  });

  it('types nothing while a program other than ssh holds the terminal', () => {
    const { tracker, typed, feed, foreground } = setup();
    foreground.programs = ['cat'];
    feed({ kind: 'prompt-start', nonce: LOCAL });
    feed({ kind: 'command-start', nonce: LOCAL, commandLine: 'ssh db1' });
    feed({ kind: 'ssh-start', nonce: LOCAL, conn: CONN, dest: 'db1' });
    feed({ kind: 'ssh-request', conn: CONN, remote: REMOTE });
    expect(typed).toHaveLength(0);
    expect(tracker.depth).toBe(1);
    // Still pending: once ssh has the terminal, the request is answered.
    foreground.programs = ['ssh'];
    feed({ kind: 'ssh-request', conn: CONN, remote: REMOTE });
    expect(typed).toHaveLength(1);
  });

  it('a wrapped ssh that fails at once without asking says how to connect without integration; ssh’s own failures do not', () => {
    const { notices, feed } = setup();
    const attempt = (conn: string, exitCode: number) => {
      feed({ kind: 'prompt-start', nonce: LOCAL });
      feed({ kind: 'command-start', nonce: LOCAL, commandLine: 'ssh gw' });
      feed({ kind: 'ssh-start', nonce: LOCAL, conn, dest: 'gw' });
      feed({ kind: 'command-end', nonce: LOCAL, exitCode });
    };
    attempt('1111111111111111', 255);
    attempt('2222222222222222', 130);
    attempt('3333333333333333', 0);
    expect(notices).toEqual([]);
    attempt('4444444444444444', 1);
    expect(notices).toEqual(["ssh gw ended (1) without starting Tandem's integration: the server may refuse remote commands. `command ssh gw` connects without it."]);
  });
});
