import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway HOME for tests (integration and e2e): quiet startup files for bash, zsh and
 * fish so prompts are predictable, and the XDG directories inside it so Tandem's config and
 * session files never touch the real ones.
 */
export function makeTestHome(prefix = 'tandem-test-'): string {
  const home = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(home, '.bashrc'), 'PS1="\\u\\$ "\n');
  writeFileSync(join(home, '.bash_profile'), '[ -f ~/.bashrc ] && . ~/.bashrc\n');
  writeFileSync(join(home, '.zshrc'), 'PROMPT="%n%# "\n');
  mkdirSync(join(home, '.config/fish'), { recursive: true });
  writeFileSync(join(home, '.config/fish/config.fish'), 'set -g fish_greeting ""\n');
  // fish builds completions from the man pages in the background on its first interactive
  // start unless this folder exists; that job outlives the shell and raced the home's removal.
  mkdirSync(join(home, '.local/share/fish/generated_completions'), { recursive: true });
  return home;
}

/** The environment a test starts Tandem (or a shell) with: nothing of the developer's own. */
export function testHomeEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    USER: process.env.USER ?? 'root',
    LANG: 'C.UTF-8',
    SHELL: '/bin/bash',
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
  };
}

/** Removes a test home; retries while a shell that is exiting still writes its history there. */
export function removeTestHome(home: string): void {
  rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}
