import { useRef, useState, type KeyboardEvent } from 'react';
import { addNote } from './agentRequests';
import { focusPlanFrom, keepFocusOnClick, leaveFieldOnEscape } from './planFocus';

/**
 * A note for the agent while a plan is open: it revises the remaining steps. Enter sends, and
 * the plan card takes the keyboard (the field goes once the plan is revised); Esc leaves the
 * field, keeping the note.
 */
export function PlanNote() {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const row = useRef<HTMLDivElement>(null);

  const send = async () => {
    const note = text.trim();
    if (!note || sending) return;
    focusPlanFrom(row.current);
    setSending(true);
    if (await addNote(note)) setText('');
    setSending(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      event.stopPropagation();
      void send();
    } else if (event.key === 'Escape') {
      leaveFieldOnEscape(event);
    }
  };

  return (
    <div className="plan__note" ref={row}>
      <input
        data-testid="plan-note"
        aria-label="Add a note for the agent"
        placeholder="Add a note for the agent…"
        title="The agent reads it and revises the remaining steps"
        value={text}
        maxLength={100_000}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <button type="button" data-action="add-note" onMouseDown={keepFocusOnClick} disabled={text.trim() === '' || sending} onClick={() => void send()}>
        Add note
      </button>
    </div>
  );
}
