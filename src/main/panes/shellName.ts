import { basename } from 'node:path';
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
