import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { appActions, type AppAction } from '../actions/appActions';
import { chordLabel } from '../actions/chords';
import { fuzzyScore } from '../actions/fuzzyMatch';
import { primaryChord } from '../actions/keybindings';
import { useUiStore } from '../app/uiStore';
import { focusActivePane } from '../terminal/paneLifecycle';

interface Entry {
  action: AppAction;
  enabled: boolean;
  score: number;
}

/** Every action, fuzzy-filtered. Up/Down choose, Enter runs, Esc closes. */
export function CommandPalette() {
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const setOpen = useUiStore((state) => state.setPaletteOpen);

  const entries = useMemo<Entry[]>(() => {
    const matches: Entry[] = [];
    for (const action of appActions) {
      if (action.hidden) continue;
      const score = fuzzyScore(query, action.title);
      if (score === undefined) continue;
      matches.push({ action, score, enabled: action.enabled ? action.enabled() : true });
    }
    if (query.trim()) matches.sort((a, b) => b.score - a.score);
    return matches;
  }, [query]);

  useEffect(() => inputRef.current?.focus(), []);
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${selected}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) focusActivePane();
  };

  const runEntry = (entry: Entry | undefined) => {
    if (!entry || !entry.enabled) return;
    // Settings and the AI panel place keyboard focus themselves.
    close(entry.action.id !== 'settings.open' && !entry.action.id.startsWith('ai.'));
    entry.action.run();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setSelected((index) => Math.min(entries.length - 1, index + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setSelected((index) => Math.max(0, index - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      runEntry(entries[selected]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  };

  return (
    <div className="overlay" onMouseDown={() => close()}>
      <div
        className="palette"
        data-testid="command-palette"
        role="dialog"
        aria-label="Command palette"
        onMouseDown={(event) => event.stopPropagation()}
      >
        <input
          ref={inputRef}
          className="palette__input"
          data-testid="palette-input"
          placeholder="Type a command"
          aria-label="Command"
          value={query}
          spellCheck={false}
          onChange={(event) => {
            setQuery(event.target.value);
            setSelected(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul className="palette__list" ref={listRef} role="listbox">
          {entries.length === 0 && <li className="palette__empty">No matching commands</li>}
          {entries.map((entry, index) => {
            const chord = primaryChord(entry.action.id);
            return (
              <li
                key={entry.action.id}
                role="option"
                aria-selected={index === selected}
                aria-disabled={!entry.enabled}
                data-index={index}
                data-testid="palette-item"
                data-action-id={entry.action.id}
                className={`palette__item${index === selected ? ' palette__item--selected' : ''}${entry.enabled ? '' : ' palette__item--disabled'}`}
                onMouseMove={() => setSelected(index)}
                onClick={() => runEntry(entry)}
              >
                <span>{entry.action.title}</span>
                {chord && <kbd>{chordLabel(chord)}</kbd>}
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
