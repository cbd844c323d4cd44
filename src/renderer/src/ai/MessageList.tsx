import { useLayoutEffect, useRef } from 'react';
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
      {items.length === 0 ? <EmptyConversation /> : items.map((item) => <MessageItem key={item.id} item={item} />)}
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
