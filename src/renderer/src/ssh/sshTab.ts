import { sshCommandLine } from '../../../shared/sshDestination';
import { openNewTab } from '../terminal/paneLifecycle';
import { paneSessions } from '../terminal/paneSessions';
import { shellReady } from './shellReady';

/**
 * Opens a new tab and, at its shell's first prompt, types `ssh ARGS…` and Enter as the user
 * would: the shell's own `ssh` (or Tandem's wrapper of it) runs it, and it lands in the shell's
 * history. The arguments are quoted, so each reaches ssh as one word whatever it holds.
 */
export async function openSshTab(args: readonly string[]): Promise<void> {
  const paneId = await openNewTab();
  if (paneId === undefined || !(await shellReady(paneId))) return;
  paneSessions.get(paneId)?.typeText(`${sshCommandLine(args)}\r`);
}
