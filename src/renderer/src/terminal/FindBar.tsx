import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useUiStore } from '../app/uiStore';
import { paneSessions } from './paneSessions';

/**
 * Find in scrollback (search addon). As in other terminals, the search runs upwards from the
 * newest output: typing and Enter go to the previous (older) match, Shift+Enter back down.
 */
export function FindBar({ paneId }: { paneId: number }) {
  const [query, setQuery] = useState('');
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [regex, setRegex] = useState(false);
  const [results, setResults] = useState<{ index: number; count: number } | undefined>();
  const [found, setFound] = useState(true);
  const inputRef = useRef<HTMLInputElement>(null);
  const focusRequest = useUiStore((state) => state.findFocusRequest);
  const setFindPane = useUiStore((state) => state.setFindPane);

  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [focusRequest]);

  useEffect(() => {
    const session = paneSessions.get(paneId);
    const subscription = session?.find.onSearchResults((event) =>
      setResults({ index: event.resultIndex, count: event.resultCount }),
    );
    return () => {
      subscription?.dispose();
      paneSessions.get(paneId)?.find.clear();
    };
  }, [paneId]);

  const search = (direction: 'next' | 'previous' | 'newest', text = query, options = { caseSensitive, regex }) => {
    const session = paneSessions.get(paneId);
    if (!session) return;
    if (!text) {
      session.find.clear();
      setResults(undefined);
      setFound(true);
      return;
    }
    let ok: boolean;
    try {
      ok = session.find.find(text, direction, options);
    } catch {
      ok = false; // an unfinished regular expression
    }
    setFound(ok);
  };

  const close = () => {
    setFindPane(undefined);
    paneSessions.get(paneId)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      search(event.shiftKey ? 'next' : 'previous');
    }
  };

  const status = !query ? '' : results && results.count > 0 ? `${results.index + 1} of ${results.count}` : found ? '' : 'No results';

  return (
    <div className="find-bar" data-testid="find-bar" role="search" onMouseDown={(event) => event.stopPropagation()}>
      <input
        ref={inputRef}
        className={`find-bar__input${found ? '' : ' find-bar__input--missing'}`}
        data-testid="find-input"
        aria-label="Find in scrollback"
        placeholder="Find"
        value={query}
        spellCheck={false}
        onChange={(event) => {
          setQuery(event.target.value);
          search('newest', event.target.value);
        }}
        onKeyDown={onKeyDown}
      />
      <span className="find-bar__status" data-testid="find-status">
        {status}
      </span>
      <button
        type="button"
        className={`find-bar__toggle${caseSensitive ? ' find-bar__toggle--on' : ''}`}
        aria-pressed={caseSensitive}
        title="Match case"
        onClick={() => {
          setCaseSensitive(!caseSensitive);
          search('newest', query, { caseSensitive: !caseSensitive, regex });
        }}
      >
        Aa
      </button>
      <button
        type="button"
        className={`find-bar__toggle${regex ? ' find-bar__toggle--on' : ''}`}
        aria-pressed={regex}
        title="Regular expression"
        onClick={() => {
          setRegex(!regex);
          search('newest', query, { caseSensitive, regex: !regex });
        }}
      >
        .*
      </button>
      <button type="button" title="Older match (Enter)" aria-label="Older match" onClick={() => search('previous')}>
        ↑
      </button>
      <button type="button" title="Newer match (Shift+Enter)" aria-label="Newer match" onClick={() => search('next')}>
        ↓
      </button>
      <button type="button" title="Close (Esc)" aria-label="Close find" onClick={close}>
        ×
      </button>
    </div>
  );
}
