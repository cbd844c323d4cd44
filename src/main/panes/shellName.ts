import { basename } from 'node:path';
import type { RemoteShellInfo } from '../osc/marks';
import type { PromptShell } from '../prompt/promptInterceptor';

/** bash, zsh, fish... from a shell's path (a login shell's leading '-' dropped). */
export function shellName(path: string): string {
  return basename(path).replace(/^-/, '');
}

/** The shells whose line editors the prompt interceptor knows. */
export function promptShellOf(path: string): PromptShell {
  const name = shellName(path);
  return name === 'bash' || name === 'zsh' || name === 'fish' ? name : 'other';
}

/** The line editor keys go to: the remote login shell's while the pane is on one (reached with `ssh`), else the pane's own. */
export function promptShellAt(remote: Pick<RemoteShellInfo, 'shell'> | undefined, localShellPath: string): PromptShell {
  return promptShellOf(remote ? remote.shell : localShellPath);
}
