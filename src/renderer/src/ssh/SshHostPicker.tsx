import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { SshHostList } from '../../../shared/ssh';
import { engine } from '../app/engine';
import { focusActivePane } from '../terminal/paneLifecycle';
import { sshChoices, type SshChoice } from './sshChoices';
import { useSshPicker } from './sshPickerStore';
import { openSshTab } from './sshTab';

/**
 * "SSH to Host…": the hosts of ~/.ssh/config, fuzzy-filtered as the command palette filters
 * its commands, and whatever else is typed as a destination of its own. Up/Down choose, Enter
 * opens a new tab that runs `ssh <host>`, Esc closes.
 */
export function SshHostPicker() {
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState(0);
  const [list, setList] = useState<SshHostList | undefined>();
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const setOpen = useSshPicker((state) => state.setOpen);

  useEffect(() => {
    inputRef.current?.focus();
    let current = true;
    engine()
      .request('ssh.hosts', {})
      .then(
        (hosts) => current && setList(hosts),
        (error: unknown) => current && setList({ hosts: [], problems: [`~/.ssh/config could not be read: ${error instanceof Error ? error.message : String(error)}`] }),
      );
    return () => {
      current = false;
    };
  }, []);
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${selected}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const choices = useMemo(() => sshChoices(list?.hosts ?? [], query), [list, query]);

  const close = () => {
    setOpen(false);
    focusActivePane();
  };

  const choose = (choice: SshChoice | undefined) => {
    if (!choice || choice.problem) return;
    setOpen(false);
    void openSshTab([choice.destination]);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setSelected((index) => Math.min(choices.length - 1, index + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setSelected((index) => Math.max(0, index - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(choices[selected]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  };

  return (
    <div className="overlay" onMouseDown={() => close()}>
      <div className="palette" data-testid="ssh-host-picker" role="dialog" aria-label="SSH to host" onMouseDown={(event) => event.stopPropagation()}>
        <input
          ref={inputRef}
          className="palette__input"
          data-testid="ssh-host-input"
          placeholder="A host of ~/.ssh/config, or user@host"
          aria-label="Host"
          value={query}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          onChange={(event) => {
            setQuery(event.target.value);
            setSelected(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul className="palette__list" ref={listRef} role="listbox">
          {choices.map((choice, index) => (
            <li
              key={`${choice.typed ? 'typed' : 'host'}:${choice.destination}`}
              role="option"
              aria-selected={index === selected}
              aria-disabled={choice.problem !== undefined}
              data-index={index}
              data-testid="ssh-host-item"
              data-destination={choice.destination}
              className={`palette__item${index === selected ? ' palette__item--selected' : ''}${choice.problem ? ' palette__item--disabled' : ''}`}
              onMouseMove={() => setSelected(index)}
              onClick={() => choose(choice)}
            >
              <span>{choice.typed ? `ssh ${choice.destination}` : choice.destination}</span>
              {choice.detail && <span className="palette__detail">{choice.detail}</span>}
            </li>
          ))}
          {list === undefined && <li className="palette__empty">Reading ~/.ssh/config…</li>}
          {list !== undefined && choices.length === 0 && <li className="palette__empty">No hosts in ~/.ssh/config: type a host, or user@host</li>}
          {list?.problems.map((problem) => (
            <li key={problem} className="palette__empty" data-testid="ssh-host-problem">
              {problem}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
