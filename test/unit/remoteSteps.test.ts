import { describe, expect, it } from 'vitest';
import { refuseEditOnRemoteHost, remotePaneNote, withNote } from '../../src/main/agent/remoteSteps';
import { resolveToolPath } from '../../src/main/agent/tools/filePaths';

const DB1 = { id: 3, remote: { user: 'deploy', host: 'db1', os: 'Linux', arch: 'x86_64', shell: '/bin/bash' } };
const LOCAL = { id: 3, remote: undefined };

describe('what the tools say in a pane on another host', () => {
  it('screenshots, screen text, window lists and UI actions say they acted on this machine, not the host', () => {
    for (const tool of ['screenshot', 'read_screen_text', 'list_windows', 'ui_action', 'computer']) {
      expect(remotePaneNote(tool, DB1), tool).toBe("(This acted on this machine's desktop, not on db1: pane 3 is on db1 over ssh.)");
      expect(remotePaneNote(tool, LOCAL), tool).toBeUndefined();
    }
  });

  it("listen says it recorded this machine's audio", () => {
    expect(remotePaneNote('listen', DB1)).toBe("(This recorded this machine's audio, not db1's: pane 3 is on db1 over ssh.)");
    expect(remotePaneNote('listen', LOCAL)).toBeUndefined();
  });

  it("file reads say they read this machine's files; commands and history need no note", () => {
    expect(remotePaneNote('read_file', DB1)).toContain("read this machine's files, not db1's");
    expect(remotePaneNote('list_directory', DB1)).toContain('read files there with a command');
    for (const tool of ['run_command', 'terminal_history', 'search_history']) expect(remotePaneNote(tool, DB1), tool).toBeUndefined();
  });

  it('adds the note after text, and as a text part after an image', () => {
    expect(withNote('3 windows', '(note)')).toBe('3 windows\n(note)');
    const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'AAAA' } };
    expect(withNote([image], '(note)')).toEqual([image, { type: 'text', text: '(note)' }]);
    expect(withNote('unchanged', undefined)).toBe('unchanged');
  });

  it('refuses file edits there, naming the host', () => {
    expect(refuseEditOnRemoteHost(DB1, { command: 'write_file x' })).toMatchObject({ decision: 'deny', host: 'db1' });
    expect(refuseEditOnRemoteHost(LOCAL, { command: 'write_file x' })).toBeUndefined();
  });

  it("a relative path is refused in a remote pane (its cwd is a directory there); absolute and ~ paths name this machine's files", () => {
    const refused = resolveToolPath('config/app.yml', { cwd: '/srv/app', remoteHost: 'db1' });
    expect(refused).toMatchObject({ ok: false });
    expect(!refused.ok && refused.message).toContain('The pane is on db1 over ssh');
    expect(resolveToolPath('/etc/hosts', { cwd: '/srv/app', remoteHost: 'db1' })).toEqual({ ok: true, path: '/etc/hosts' });
    expect(resolveToolPath('~/notes', { cwd: '/srv/app', remoteHost: 'db1', homeDir: '/home/me' })).toEqual({ ok: true, path: '/home/me/notes' });
    expect(resolveToolPath('config/app.yml', { cwd: '/srv/app' })).toEqual({ ok: true, path: '/srv/app/config/app.yml' });
  });
});
