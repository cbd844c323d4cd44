import { Fragment, useLayoutEffect, useRef } from 'react';
import type { ConversationItem } from '../../../shared/agent';
import { chordLabel } from '../actions/chords';
import { primaryChord } from '../actions/keybindings';
import { useConversationStore } from './conversationStore';
import { MessageItem } from './MessageItem';

const NO_ITEMS: ConversationItem[] = [];
/** Within this distance of the end the list counts as "at the bottom" and follows new text. */
const STICK_DISTANCE_PX = 32;

/** The conversation, following new text to the bottom until the user scrolls up. */
export function MessageList() {
  const items = useConversationStore((state) => state.conversation?.items ?? NO_ITEMS);
  const contextStartsAt = useConversationStore((state) => state.conversation?.contextStartsAt);
  const listRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);

  useLayoutEffect(() => {
    const list = listRef.current;
    if (list && stickToBottom.current) list.scrollTop = list.scrollHeight;
  });

  return (
    <div
      ref={listRef}
      className="ai-messages"
      data-testid="ai-messages"
      role="region"
      aria-label="Conversation"
      tabIndex={0}
      onScroll={(event) => {
        const list = event.currentTarget;
        stickToBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight <= STICK_DISTANCE_PX;
      }}
    >
      {items.length === 0 ? <EmptyConversation /> : <ConversationItems items={items} contextStartsAt={contextStartsAt} />}
    </div>
  );
}

/** The items, with a marker before the first one the model still sees (when history was dropped). */
export function ConversationItems({ items, contextStartsAt }: { items: ConversationItem[]; contextStartsAt: string | undefined }) {
  return items.map((item) => (
    <Fragment key={item.id}>
      {item.id === contextStartsAt && <DroppedHistoryMarker />}
      <MessageItem item={item} />
    </Fragment>
  ));
}

/** Between the exchanges the model no longer sees and those it does. */
function DroppedHistoryMarker() {
  return (
    <div className="ai-dropped-history" data-testid="dropped-history" role="separator">
      The model no longer sees the messages above: they were left out of its requests to fit the context budget ([ai] history_token_budget).
    </div>
  );
}

function EmptyConversation() {
  const toggle = primaryChord('ai.toggle');
  return (
    <div className="ai-empty">
      <p>Ask about your terminal: what failed, how to do something, what a command does.</p>
      <ul>
        <li>
          <code>! cmd</code> runs a command in the active pane and shares it; a lone <code>!</code> goes back to the terminal.
        </li>
        <li>Drag a command&apos;s gutter mark here, or use its menu&apos;s “Ask AI”, to attach it.</li>
        <li>
          At a shell prompt, start a line with <code>#</code> to ask from there.
        </li>
        <li>Esc or Ctrl+C here stops the agent.{toggle ? ` ${chordLabel(toggle)} shows and hides this panel.` : ''}</li>
      </ul>
    </div>
  );
}
