import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlockTracker } from '../../src/main/blocks/blockTracker';
import type { Mark } from '../../src/main/osc/marks';
import { integrationAssetsDir } from '../../src/main/shell/shellLaunch';
import { readPlainHosts } from '../../src/main/ssh/plainHosts';
import { SshBootstrap } from '../../src/main/ssh/sshBootstrap';

const LOCAL = 'localnonce';
const KEY = 'bob@gw:22';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'ssh-verdicts-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function setup() {
  const tracker = new BlockTracker(1, LOCAL, true, '/home/me');
  const notices: string[] = [];
  const plainHostsFile = join(dir, 'state', 'ssh-plain-hosts');
  const ssh = new SshBootstrap({
    tracker,
    assetsDir: integrationAssetsDir,
    type: () => {},
    notice: (message) => notices.push(message),
    foreground: () => ['ssh'],
    verdictDir: () => dir,
    plainHostsFile,
  });
  let offset = 0;
  const feed = (mark: Mark) => {
    offset += 10;
    if (mark.kind.startsWith('ssh-')) ssh.handle(mark as Parameters<SshBootstrap['handle']>[0], offset);
    else tracker.handle(mark, offset);
  };
  /** `ssh gw` at the local prompt: its block, the wrapper's start mark. */
  const start = (conn: string) => {
    feed({ kind: 'prompt-start', nonce: LOCAL });
    feed({ kind: 'command-start', nonce: LOCAL, commandLine: 'ssh gw' });
    feed({ kind: 'ssh-start', nonce: LOCAL, conn, dest: 'gw', key: KEY });
  };
  const verdict = (conn: string) => (existsSync(join(dir, `ssh-verdict.${conn}`)) ? readFileSync(join(dir, `ssh-verdict.${conn}`), 'utf8').trim() : undefined);
  const remembered = () => readPlainHosts(plainHostsFile).hosts.map((host) => host.key);
  return { tracker, ssh, notices, feed, start, verdict, remembered };
}

describe('the verdict on a wrapped ssh that ended (the wrapper retries plain on `plain`)', () => {
  it('a quick failure before the server asked: plain, the server remembered, one notice', () => {
    const { feed, start, verdict, remembered, notices } = setup();
    start('1111111111111111');
    feed({ kind: 'ssh-end', nonce: LOCAL, conn: '1111111111111111', status: 1 });
    expect(verdict('1111111111111111')).toBe('plain');
    expect(remembered()).toEqual([KEY]);
    expect(notices).toEqual([
      "gw refused Tandem's ssh bootstrap (ssh ended with 1 before asking for it): connecting again without integration. The next `ssh` to bob@gw:22 is plain too (`tandem ssh --forget-plain gw` undoes that).",
    ]);
    // The block's end (the retry's status) adds nothing.
    feed({ kind: 'command-end', nonce: LOCAL, exitCode: 0 });
    expect(notices).toHaveLength(1);
  });

  it('keep: after the server asked, gave up, or prompted by itself, and for ssh’s own failures and Ctrl+C', () => {
    const { ssh, tracker, feed, start, verdict, remembered } = setup();
    const cases: [string, () => void, number][] = [
      ['2222222222222222', () => feed({ kind: 'ssh-request', conn: '2222222222222222', remote: { user: 'bob', host: 'gw', os: 'Linux', arch: 'x', shell: '/bin/bash' } }), 1],
      ['3333333333333333', () => feed({ kind: 'ssh-fallback', conn: '3333333333333333', reason: 'shell', host: 'gw' }), 1],
      ['4444444444444444', () => expect(ssh.promptInstead(tracker.running!.id)).toBe(true), 1],
      ['5555555555555555', () => {}, 255],
      ['6666666666666666', () => {}, 130],
    ];
    for (const [conn, between, status] of cases) {
      start(conn);
      between();
      // A request pushed the remote shell; its end (the local D) pops it.
      feed({ kind: 'ssh-end', nonce: LOCAL, conn, status });
      feed({ kind: 'command-end', nonce: LOCAL, exitCode: status });
      expect(verdict(conn)).toBe('keep');
    }
    expect(remembered()).toEqual([]);
  });

  it('an end mark without the nonce of the shell that ran ssh, or for an unknown connection, gets no answer', () => {
    const { ssh, feed, start, verdict } = setup();
    start('7777777777777777');
    feed({ kind: 'ssh-end', nonce: 'forged', conn: '7777777777777777', status: 1 });
    feed({ kind: 'ssh-end', nonce: LOCAL, conn: '8888888888888888', status: 1 });
    expect(verdict('7777777777777777')).toBeUndefined();
    expect(verdict('8888888888888888')).toBeUndefined();
    expect(ssh.ignoredCount).toBe(2);
  });
});
