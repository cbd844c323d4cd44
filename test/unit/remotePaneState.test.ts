import { describe, expect, it } from 'vitest';
import type { TerminalState } from '../../src/shared/blocks';
import { BlockTracker } from '../../src/main/blocks/blockTracker';
import type { RemoteShellInfo } from '../../src/main/osc/marks';

// The pane's state (what the status bar shows) is sent when the tracker says it changed: it must
// say so whenever the shell on top or its host name changes, not only when state or cwd do.

const LOCAL = 'localnonce';
const REMOTE_NONCE = 'remotenonce';
const DB1: RemoteShellInfo = { user: 'alice', host: 'db1', os: 'Linux', arch: 'x86_64', shell: '/bin/bash' };

function setup() {
  const tracker = new BlockTracker(1, LOCAL, true, '/home/me');
  const changes: { state: TerminalState; cwd: string; host: string | undefined }[] = [];
  tracker.onStateChanged(({ state, cwd }) => changes.push({ state, cwd, host: tracker.remote?.host }));
  let offset = 0;
  const at = () => (offset += 10);
  // The local shell runs `ssh db1`; the engine answered the remote's request.
  tracker.handle({ kind: 'prompt-start', nonce: LOCAL, cwd: '/home/me' }, at());
  tracker.handle({ kind: 'command-start', nonce: LOCAL, commandLine: 'ssh db1', cwd: '/home/me' }, at());
  tracker.pushSession(REMOTE_NONCE, DB1);
  tracker.handle({ kind: 'prompt-start', nonce: REMOTE_NONCE, cwd: '/tmp' }, at());
  changes.length = 0;
  return { tracker, changes, at };
}

describe("the pane's state on a remote shell", () => {
  it("a new host name from OSC 7 is a state change even when the directory is the same", () => {
    const { tracker, changes, at } = setup();
    tracker.handle({ kind: 'cwd', path: '/tmp', host: 'db1.example.com' }, at());
    expect(tracker.remote?.host).toBe('db1.example.com');
    expect(changes).toEqual([{ state: 'PROMPT', cwd: '/tmp', host: 'db1.example.com' }]);
    // The same name again changes nothing.
    tracker.handle({ kind: 'cwd', path: '/tmp', host: 'db1.example.com' }, at());
    expect(changes).toHaveLength(1);
  });

  it('a mark of the local shell ends the remote one, and that alone is a state change', () => {
    const { tracker, changes, at } = setup();
    // A mark that moves nothing by itself (the local shell's command line), with the local nonce.
    tracker.handle({ kind: 'command-line', nonce: LOCAL, commandLine: 'x' }, at());
    expect(tracker.remote).toBeUndefined();
    expect(changes).toEqual([{ state: 'EXECUTING', cwd: '/home/me', host: undefined }]);
  });
});
