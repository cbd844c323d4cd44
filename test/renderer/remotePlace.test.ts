import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Block } from '../../src/shared/blocks';
import type { PaneInfo } from '../../src/shared/protocol';
import type { RemoteShell } from '../../src/shared/remoteShell';
import { describeBlock } from '../../src/renderer/src/blocks/blockStatus';
import { blockHost, blockHostHeading, remoteShellName, remoteShellOf, rerunElsewhere, shortHost, SHOWN_HOST_CHARS, userAtHost } from '../../src/renderer/src/remote/remotePlace';
import { usePanesStore } from '../../src/renderer/src/terminal/panesStore';
import { importRendererModule } from './support/rendererModule';

// Where a block ran and where a pane is, as the renderer shows them: the pure formatting, the
// pane's remote state as the engine's pane.state events set it, and the block menu and status
// bar rendered to HTML. The real thing, over a real sshd in Chromium, is e2e/ssh-remote-ui.spec.ts.

type MenuModule = typeof import('../../src/renderer/src/blocks/BlockMenu');
type WhereModule = typeof import('../../src/renderer/src/statusbar/PaneWhere');
type ActionsModule = typeof import('../../src/renderer/src/blocks/blockActions');

const DB1: RemoteShell = { user: 'alice', host: 'db1', os: 'Linux', arch: 'x86_64', shell: '/usr/bin/zsh' };

function block(overrides: Partial<Block> = {}): Block {
  return { id: 'p1b1', paneId: 1, command: 'ls', cwd: '/tmp', startedAt: 1_000, endedAt: 1_250, exitCode: 0, trusted: true, outputOffset: 0, usedAlternateScreen: false, ...overrides };
}

function paneInfo(overrides: Partial<PaneInfo> = {}): PaneInfo {
  return { paneId: 1, shell: '/bin/bash', shellName: 'bash', integration: true, cwd: '/home/me', state: 'PROMPT', cols: 80, rows: 24, streamOffset: 0, ...overrides };
}

describe('a place as text', () => {
  it('is user@host, or the host alone; a local block has none', () => {
    expect(userAtHost({ user: 'alice', host: 'db1' })).toBe('alice@db1');
    expect(userAtHost({ user: '', host: 'db1' })).toBe('db1');
    expect(userAtHost({ host: '' })).toBe('unnamed host');
    expect(blockHost(block({ host: 'db1', user: 'alice' }))).toBe('alice@db1');
    expect(blockHost(block())).toBeUndefined();
    expect(blockHostHeading(block({ host: 'db1', user: 'alice' }))).toBe('on db1 as alice');
    expect(blockHostHeading(block({ host: 'db1' }))).toBe('on db1');
    expect(blockHostHeading(block())).toBeUndefined();
    expect(remoteShellName({ shell: '/usr/bin/zsh' })).toBe('zsh');
    expect(remoteShellName({ shell: '-bash' })).toBe('bash');
  });

  it('cuts a long user@host from its start, keeping the host', () => {
    const long = `someone-with-a-long-name@${'x'.repeat(40)}.example.com`;
    const shown = shortHost(long);
    expect(shown).toHaveLength(SHOWN_HOST_CHARS);
    expect(shown.startsWith('…')).toBe(true);
    expect(shown.endsWith('.example.com')).toBe(true);
    expect(shortHost('alice@db1')).toBe('alice@db1');
  });

  it("a block's tooltip says where it ran as user@host:cwd; a local block's stays as it was", () => {
    expect(describeBlock(block({ host: 'db1', user: 'alice', exitCode: 1 }))).toBe('ls\nexit 1 · 250 ms · alice@db1:/tmp');
    expect(describeBlock(block({ host: 'db1', user: 'alice', cwd: '' }))).toBe('ls\nexit 0 · 250 ms · alice@db1');
    expect(describeBlock(block())).toBe('ls\nexit 0 · 250 ms · /tmp');
  });

  it('a rerun is refused where the pane is no longer on the host the block ran on, and why', () => {
    expect(rerunElsewhere(block(), undefined)).toBeUndefined();
    expect(rerunElsewhere(block({ host: 'db1', user: 'alice' }), DB1)).toBeUndefined();
    expect(rerunElsewhere(block({ host: 'db1', user: 'alice' }), undefined)).toBe('It ran on alice@db1; the pane is on this machine now');
    expect(rerunElsewhere(block(), DB1)).toBe('It ran on this machine; the pane is on alice@db1 now');
    expect(rerunElsewhere(block({ host: 'db1', user: 'bob' }), DB1)).toBe('It ran on bob@db1; the pane is on alice@db1 now');
    expect(rerunElsewhere(block({ host: 'web1', user: 'alice' }), DB1)).toBe('It ran on alice@web1; the pane is on alice@db1 now');
  });
});

describe("a pane's remote state", () => {
  beforeEach(() => usePanesStore.getState().clear());

  it('comes with pane.state while the pane is on a remote shell, and goes when a state without it arrives', () => {
    const store = usePanesStore.getState();
    store.addPane(paneInfo());
    // The remote shell has not said its directory yet: the local one is not shown as if it were remote.
    store.applyState({ paneId: 1, state: 'IDLE', cwd: '', integration: true, remote: DB1 });
    expect(usePanesStore.getState().panes[1]).toMatchObject({ remote: DB1, cwd: '' });
    store.applyState({ paneId: 1, state: 'PROMPT', cwd: '/home/alice', integration: true, remote: DB1 });
    store.applyState({ paneId: 1, state: 'EXECUTING', cwd: '', integration: true, remote: DB1 });
    expect(usePanesStore.getState().panes[1]).toMatchObject({ remote: DB1, cwd: '/home/alice', state: 'EXECUTING' });
    store.applyState({ paneId: 1, state: 'IDLE', cwd: '/home/me', integration: true });
    expect(usePanesStore.getState().panes[1]!.remote).toBeUndefined();
    expect(usePanesStore.getState().panes[1]!.cwd).toBe('/home/me');
  });

  it('a re-attached pane on a remote shell knows it at once', () => {
    usePanesStore.getState().addPane(paneInfo({ remote: DB1, cwd: '/srv' }));
    expect(usePanesStore.getState().panes[1]).toMatchObject({ remote: DB1, cwd: '/srv' });
  });

  it('is checked: a remote description that does not fit the protocol still says the pane is on another host', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(remoteShellOf(undefined)).toBeUndefined();
    expect(remoteShellOf(DB1)).toEqual(DB1);
    expect(remoteShellOf({ ...DB1, host: 'db1\x1b[31m' })).toMatchObject({ host: 'unreadable host name' });
    expect(remoteShellOf({ ...DB1, host: '' })).toMatchObject({ host: 'unreadable host name' });
    expect(remoteShellOf('db1')).toMatchObject({ host: 'unreadable host name' });
    expect(warn).toHaveBeenCalledTimes(3);
    warn.mockRestore();
  });
});

describe('rendered', () => {
  let menu: MenuModule;
  let where: WhereModule;
  let actions: ActionsModule;

  beforeAll(async () => {
    vi.stubGlobal('window', { ...globalThis, tandemElectron: undefined });
    vi.stubGlobal('navigator', { platform: 'Linux x86_64', userAgent: 'vitest', maxTouchPoints: 0 });
    menu = await importRendererModule<MenuModule>('blocks/BlockMenu.tsx');
    where = await importRendererModule<WhereModule>('statusbar/PaneWhere.tsx');
    actions = await importRendererModule<ActionsModule>('blocks/blockActions.ts');
  });

  afterAll(() => vi.unstubAllGlobals());

  const renderMenu = (shown: Block) => renderToStaticMarkup(createElement(menu.BlockMenu, { block: shown, focusRequest: 0, onDone: () => {}, onLeave: () => {} }));

  it("the block menu names a remote block's host; a local block's menu has no such line", () => {
    expect(renderMenu(block({ host: 'db1', user: 'alice' }))).toMatch(/data-testid="block-menu-host" title="Ran in alice@db1:\/tmp, over ssh">on db1 as alice</);
    expect(renderMenu(block())).not.toContain('block-menu-host');
  });

  it('Rerun is offered only at a prompt of the host the block ran on', () => {
    usePanesStore.getState().clear();
    usePanesStore.getState().addPane(paneInfo({ remote: DB1, cwd: '/tmp' }));
    const pane = () => usePanesStore.getState().panes[1];
    const remote = block({ host: 'db1', user: 'alice' });
    expect(actions.rerunRefusal(remote, pane())).toBeUndefined();
    expect(actions.rerunRefusal(block(), pane())).toBe('It ran on this machine; the pane is on alice@db1 now');
    usePanesStore.getState().applyState({ paneId: 1, state: 'EXECUTING', cwd: '/tmp', integration: true, remote: DB1 });
    expect(actions.rerunRefusal(remote, pane())).toBe('Available when the shell is at a prompt');
    usePanesStore.getState().applyState({ paneId: 1, state: 'PROMPT', cwd: '/home/me', integration: true });
    expect(actions.rerunRefusal(remote, pane())).toBe('It ran on alice@db1; the pane is on this machine now');
    expect(actions.rerunRefusal(block(), pane())).toBeUndefined();
  });

  it('the status bar shows user@host, the remote shell and its cwd as it is; on this machine, what it showed before', () => {
    usePanesStore.getState().clear();
    usePanesStore.getState().addPane(paneInfo({ cwd: '/home/me/src' }));
    const render = () => renderToStaticMarkup(createElement(where.PaneWhere, { pane: usePanesStore.getState().panes[1]!, home: '/home/me' }));
    const local = render();
    expect(local).not.toContain('status-remote');
    expect(local).toMatch(/data-testid="status-shell" title="\/bin\/bash">bash</);
    expect(local).toMatch(/data-testid="status-cwd" title="\/home\/me\/src"><span>~\/src</);

    usePanesStore.getState().applyState({ paneId: 1, state: 'PROMPT', cwd: '/home/me/src', integration: true, remote: DB1 });
    const remote = render();
    expect(remote).toMatch(/data-testid="status-remote" title="On alice@db1 over ssh \(Linux x86_64\)">alice@db1</);
    expect(remote).toMatch(/data-testid="status-shell" title="\/usr\/bin\/zsh">zsh</);
    // A remote path is not this machine's home, even when it reads the same.
    expect(remote).toMatch(/data-testid="status-cwd" title="\/home\/me\/src"><span>\/home\/me\/src</);
  });
});
