import type { RemoteShellInfo } from '../osc/marks';

function oneLine(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ').trim();
}

/** "Linux x86_64", "Darwin arm64", or "unknown" when stage 1's `uname` said nothing. */
function remoteSystem(remote: RemoteShellInfo): string {
  return [oneLine(remote.os), oneLine(remote.arch)].filter(Boolean).join(' ') || 'unknown';
}

/**
 * The standing context's first lines for a pane whose shell is on another host (reached with
 * `ssh`, integrated): where the pane is, as stage 1 reported it (labels, not proof), and what
 * that means for the agent's tools. `os` is this machine's.
 */
export function remotePaneLines(input: { os: string; cwd: string; paneId: number; remote: RemoteShellInfo }): string[] {
  const { remote, paneId } = input;
  const host = oneLine(remote.host) || 'an unknown host';
  const user = oneLine(remote.user) || 'an unknown user';
  const shell = oneLine(remote.shell) || 'unknown';
  const cwd = oneLine(input.cwd) || 'unknown';
  return [
    `Environment: this machine runs ${oneLine(input.os) || 'an unknown OS'}. Pane ${paneId} is on another host over ssh: ${host} ` +
      `(user ${user}${remote.home ? `, home ${oneLine(remote.home)}` : ''}, OS ${remoteSystem(remote)}, login shell ${shell}); cwd ${cwd} (a directory on ${host}).`,
    `Remote pane: run_command steps in pane ${paneId} run on ${host} as ${user}, not on this machine, and without the PAGER=cat ` +
      `they get here: add --no-pager or | cat to commands that page (git log, journalctl, systemctl). This machine's files are not ${host}'s: ` +
      `read_file and list_directory read this machine's files (paths relative to the pane's cwd are refused), and edit_file and write_file are ` +
      `refused in this pane; change files on ${host} with commands there (each is approved like any step). Screenshots, screen text, ` +
      `window lists and UI actions see and act on this machine's desktop only, never on ${host}.`,
  ];
}
