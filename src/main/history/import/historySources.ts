import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readAtuinHistory } from './atuinHistory';
import { parseBashHistory } from './bashHistory';
import { parseFishHistory } from './fishHistory';
import type { ParsedHistory } from './historyEntry';
import type { HistorySource } from './importedRecords';
import { parseZshHistory } from './zshHistory';

/** Where each shell keeps its history by default, first existing candidate wins. */
export function defaultHistoryFiles(source: HistorySource, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  const dataHome = env.XDG_DATA_HOME?.startsWith('/') ? env.XDG_DATA_HOME : join(home, '.local/share');
  switch (source) {
    case 'bash':
      return [join(home, '.bash_history')];
    case 'zsh':
      return [...(env.ZDOTDIR?.startsWith('/') ? [join(env.ZDOTDIR, '.zsh_history')] : []), join(home, '.zsh_history'), join(home, '.histfile')];
    case 'fish':
      return [join(dataHome, 'fish', 'fish_history')];
    case 'atuin':
      return [join(dataHome, 'atuin', 'history.db')];
  }
}

/** The default history file of a source that exists here, or undefined. */
export function detectHistoryFile(source: HistorySource, env: NodeJS.ProcessEnv): string | undefined {
  return defaultHistoryFiles(source, env).find((file) => existsSync(file));
}

/** Reads one history file in its source's format (atuin's from a read-only copy); throws when it cannot be read at all. */
export function parseHistoryFile(source: HistorySource, file: string, bytes: () => Uint8Array): ParsedHistory {
  switch (source) {
    case 'bash':
      return parseBashHistory(bytes());
    case 'zsh':
      return parseZshHistory(bytes());
    case 'fish':
      return parseFishHistory(bytes());
    case 'atuin':
      return readAtuinHistory(file);
  }
}
