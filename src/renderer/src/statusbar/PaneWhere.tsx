import type { PaneMeta } from '../terminal/panesStore';
import { remoteShellName, userAtHost } from '../remote/remotePlace';
import { displayPath } from './displayPath';

function remoteTitle(remote: NonNullable<PaneMeta['remote']>): string {
  const system = [remote.os, remote.arch].filter(Boolean).join(' ');
  return `On ${userAtHost(remote)} over ssh${system ? ` (${system})` : ''}`;
}

/** Where the focused pane's shell is: the remote `user@host` it is on (if it is), the shell, the directory. */
export function PaneWhere({ pane, home }: { pane: PaneMeta; home: string }) {
  const { remote } = pane;
  return (
    <>
      {remote && (
        <span className="status-bar__item status-bar__remote" data-testid="status-remote" title={remoteTitle(remote)}>
          {userAtHost(remote)}
        </span>
      )}
      <span className="status-bar__item status-bar__shell" data-testid="status-shell" title={remote ? remote.shell : pane.shell}>
        {(remote ? remoteShellName(remote) : pane.shellName) || 'shell'}
      </span>
      <span className="status-bar__item status-bar__cwd" data-testid="status-cwd" title={pane.cwd}>
        {/* This machine's home says nothing about a remote path. */}
        <span>{(remote ? pane.cwd : displayPath(pane.cwd, home)) || '—'}</span>
      </span>
    </>
  );
}
