import type { IDisposable, Terminal } from '@xterm/xterm';
import { SearchAddon, type ISearchOptions } from '@xterm/addon-search';
import type { ResolvedTheme } from '../settings/settingsStore';
import { searchDecorationColors } from './terminalThemes';

export interface FindOptions {
  caseSensitive: boolean;
  regex: boolean;
}

/** Find in one pane's scrollback (the find bar), with match decorations in the theme's colours. */
export class PaneFind {
  private readonly search = new SearchAddon({ highlightLimit: 2_000 });

  constructor(
    private readonly terminal: Terminal,
    private readonly theme: () => ResolvedTheme,
  ) {
    terminal.loadAddon(this.search);
  }

  /** `newest` starts over from the bottom (the query changed); next/previous move from the current match. */
  find(query: string, direction: 'next' | 'previous' | 'newest', options: FindOptions): boolean {
    if (!query) {
      this.search.clearDecorations();
      return false;
    }
    const searchOptions: ISearchOptions = {
      caseSensitive: options.caseSensitive,
      regex: options.regex,
      decorations: searchDecorationColors(this.theme()),
    };
    if (direction === 'newest') this.terminal.clearSelection();
    return direction === 'next' ? this.search.findNext(query, searchOptions) : this.search.findPrevious(query, searchOptions);
  }

  onSearchResults(listener: (result: { resultIndex: number; resultCount: number }) => void): IDisposable {
    return this.search.onDidChangeResults(listener);
  }

  clear(): void {
    this.search.clearDecorations();
    this.terminal.clearSelection();
  }
}
