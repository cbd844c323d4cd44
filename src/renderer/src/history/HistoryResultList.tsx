import { useEffect, useRef } from 'react';
import type { HistoryEntry } from '../../../shared/history';
import { useHostStore } from '../app/hostStore';
import { commandLine, cwdText, durationText, exactTime, exitStatus, exitText, relativeTime, whoText } from './recordFormat';

interface ResultListProps {
  records: HistoryEntry[];
  selected: number;
  /** The record the neighbours are shown around (highlighted). */
  anchorId?: number;
  onSelect(index: number): void;
  onChoose(index: number): void;
}

/** The results (or the commands around one), a row each; the selected row stays in view. */
export function HistoryResultList({ records, selected, anchorId, onSelect, onChoose }: ResultListProps) {
  const home = useHostStore((state) => state.home);
  const listRef = useRef<HTMLUListElement>(null);
  const now = new Date();
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${selected}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected, records]);
  return (
    <ul className="history-results" ref={listRef} role="listbox" aria-label="History" data-testid="history-results">
      {records.map((record, index) => {
        const status = exitStatus(record);
        const classes = ['history-result', `history-result--${status}`];
        if (index === selected) classes.push('history-result--selected');
        if (record.id === anchorId) classes.push('history-result--anchor');
        return (
          <li
            key={record.id}
            role="option"
            aria-selected={index === selected}
            className={classes.join(' ')}
            data-testid="history-result"
            data-index={index}
            data-record-id={record.id}
            data-command={record.command}
            data-exit-code={record.exitCode ?? ''}
            data-host={record.host}
            data-anchor={record.id === anchorId ? 'true' : undefined}
            // The search field keeps the keyboard: a click selects without taking it.
            onMouseDown={(event) => {
              event.preventDefault();
              onSelect(index);
            }}
            onDoubleClick={() => onChoose(index)}
          >
            <span className="history-result__command" title={record.command}>
              {status === 'failure' && (
                <span className="history-result__failed" aria-label="failed">
                  ✗{' '}
                </span>
              )}
              {commandLine(record.command)}
              {record.runs !== undefined && record.runs > 1 && (
                <span className="history-result__runs" data-testid="history-runs" title={`Ran ${record.runs} times`}>
                  {' '}×{record.runs}
                </span>
              )}
            </span>
            <span className="history-result__meta">
              {record.otherHost && (
                <span className="history-result__host" data-testid="history-host" title={`Ran on ${record.host}`}>
                  {record.host}
                </span>
              )}
              <span className="history-result__cwd" title={record.cwd ?? 'directory unknown'}>
                {cwdText(record.cwd, record.otherHost ? '' : home)}
              </span>
              <time className="history-result__when" dateTime={new Date(record.startedAt).toISOString()} title={exactTime(record.startedAt)}>
                {relativeTime(record.startedAt, now)}
              </time>
              <span className={`history-result__exit history-result__exit--${status}`} data-testid="history-exit">
                {exitText(record)}
              </span>
              <span className="history-result__duration">{durationText(record.durationMs)}</span>
              <span className="history-result__who" data-testid="history-who-ran">
                {whoText(record)}
              </span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
