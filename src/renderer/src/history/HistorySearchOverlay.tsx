import { useEffect, useRef, type KeyboardEvent } from 'react';
import { ConfirmDialog } from '../dialogs/ConfirmDialog';
import { HistoryActionBar } from './HistoryActionBar';
import { HistoryChips } from './HistoryChips';
import { HistoryPreview } from './HistoryPreview';
import { HistoryResultList } from './HistoryResultList';
import { askAboutSelected, askToForgetSelected, copySelected, forgetRecord, insertSelected, openSelected, runSelected } from './historyActions';
import { closeHistorySearch, moveSelection, PAGE_ROWS, select, setSearchText, toggleMatch, toggleNeighbours } from './historySearch';
import { selectedRecord, shownRecords, useHistorySearch } from './historySearchStore';
import { commandLine } from './recordFormat';
import { overlayCommand, overlayKeyLabel, type OverlayCommand } from './overlayKeys';

const RUN: Record<OverlayCommand, () => void> = {
  up: () => moveSelection(-1),
  down: () => moveSelection(1),
  pageUp: () => moveSelection(-PAGE_ROWS),
  pageDown: () => moveSelection(PAGE_ROWS),
  insert: insertSelected,
  run: runSelected,
  copy: () => void copySelected(),
  neighbours: () => void toggleNeighbours(),
  open: openSelected,
  ask: askAboutSelected,
  forget: askToForgetSelected,
  toggleMatch,
  close: () => closeHistorySearch(),
};

/** Keys a focused chip or menu keeps: Enter presses a chip, arrows change a menu. */
function keptByControl(target: EventTarget, command: OverlayCommand): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.tagName === 'SELECT') return command !== 'close';
  return target.tagName === 'BUTTON' && (command === 'insert' || command === 'run');
}

/** Modal: Tab and Shift+Tab go round the overlay's fields and buttons, never to the pane behind it. */
function keepTabInside(event: KeyboardEvent<HTMLDivElement>): void {
  const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>('input, select, button:not(:disabled)')];
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  const leaving = event.shiftKey ? document.activeElement === first : document.activeElement === last;
  if (!leaving) return;
  event.preventDefault();
  (event.shiftKey ? last : first)?.focus();
}

/** Ctrl+Shift+R: search the block history as you type, filter with chips, act on a result. */
export function HistorySearchOverlay() {
  const state = useHistorySearch();
  const inputRef = useRef<HTMLInputElement>(null);
  const records = shownRecords(state);
  const record = selectedRecord(state);
  const confirming = state.confirmForget;

  useEffect(() => {
    if (!confirming) inputRef.current?.focus();
  }, [confirming]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Tab') {
      keepTabInside(event);
      return;
    }
    const command = overlayCommand(event);
    if (!command || keptByControl(event.target, command)) return;
    event.preventDefault();
    event.stopPropagation();
    RUN[command]();
  };

  const anchor = state.neighbours ? state.neighbours.records.find((entry) => entry.id === state.neighbours?.anchorId) : undefined;
  return (
    <>
      <div className="overlay" onMouseDown={() => closeHistorySearch()}>
        <div
          className="history-search"
          data-testid="history-search"
          role="dialog"
          aria-label="Search history"
          onMouseDown={(event) => event.stopPropagation()}
          onKeyDown={onKeyDown}
        >
          <div className="history-search__bar">
            <input
              ref={inputRef}
              className="history-search__input"
              data-testid="history-search-input"
              placeholder="Search the commands you ran"
              aria-label="Search history"
              value={state.text}
              spellCheck={false}
              autoComplete="off"
              onChange={(event) => setSearchText(event.target.value)}
            />
            <button
              type="button"
              className={`history-chip${state.match === 'fuzzy' ? ' history-chip--on' : ''}`}
              data-testid="history-match"
              aria-pressed={state.match === 'fuzzy'}
              title="Fuzzy: the letters in order, with anything between them. Off: the text as typed, anywhere in the command"
              onMouseDown={(event) => event.preventDefault()}
              onClick={toggleMatch}
            >
              Fuzzy <kbd>{overlayKeyLabel('toggleMatch')}</kbd>
            </button>
          </div>
          <HistoryChips filters={state.filters} scope={state.scope} />
          {state.neighbours && (
            <div className="history-search__around" data-testid="history-around">
              Commands around <code>{anchor ? commandLine(anchor.command) : 'it'}</code> in its session
            </div>
          )}
          <div className="history-search__body">
            {state.error ? (
              <div className="history-search__error" role="alert" data-testid="history-error">
                {state.error}
              </div>
            ) : records.length === 0 ? (
              <div className="history-search__empty" data-testid="history-empty">
                {state.searching ? 'Searching…' : 'No command in the history matches.'}
              </div>
            ) : (
              <HistoryResultList records={records} selected={state.selected} anchorId={state.neighbours?.anchorId} onSelect={select} onChoose={(index) => {
                select(index);
                insertSelected();
              }} />
            )}
            <HistoryPreview record={record} />
          </div>
          <HistoryActionBar record={record} showingNeighbours={state.neighbours !== undefined} />
          {state.notice && (
            <div className={`history-search__notice history-search__notice--${state.notice.level}`} role="status" data-testid="history-notice">
              {state.notice.text}
            </div>
          )}
        </div>
      </div>
      {confirming && (
        <ConfirmDialog
          testId="history-forget-dialog"
          confirmTestId="history-forget-confirm"
          title="Forget this command?"
          confirmLabel="Forget"
          confirmKind="danger"
          onAnswer={(confirmed) => {
            if (confirmed) void forgetRecord(confirming);
            else useHistorySearch.getState().set({ confirmForget: undefined });
          }}
        >
          <p>
            {confirming.runs !== undefined && confirming.runs > 1
              ? `All ${confirming.runs} runs of it are deleted from the history database for good:`
              : 'It is deleted from the history database for good:'}
          </p>
          <pre className="history-forget__command">{confirming.command}</pre>
        </ConfirmDialog>
      )}
    </>
  );
}
