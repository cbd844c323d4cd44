import { Fragment, useLayoutEffect, useRef } from 'react';
import type { ConversationItem, ConversationView } from '../../../shared/agent';
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
  const compaction = useConversationStore((state) => state.conversation?.compaction);
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
      {items.length === 0 ? <EmptyConversation /> : <ConversationItems items={items} contextStartsAt={contextStartsAt} compaction={compaction} />}
    </div>
  );
}

/**
 * The items, with a marker before the first one the model still sees (when history was
 * dropped), or before the first one it is sent whole (when older turns were compacted).
 */
export function ConversationItems({
  items,
  contextStartsAt,
  compaction,
}: {
  items: ConversationItem[];
  contextStartsAt: string | undefined;
  compaction?: ConversationView['compaction'];
}) {
  const compactedBefore = compaction && (items.some((item) => item.id === compaction.startsAt) ? compaction.startsAt : items[0]?.id);
  return items.map((item) => (
    <Fragment key={item.id}>
      {item.id === contextStartsAt && <DroppedHistoryMarker />}
      {compaction && item.id === compactedBefore && <CompactedHistoryMarker compaction={compaction} />}
      <MessageItem item={item} />
    </Fragment>
  ));
}

/** Between the turns the model gets as Tandem's summary and those it gets whole. */
function CompactedHistoryMarker({ compaction }: { compaction: NonNullable<ConversationView['compaction']> }) {
  const { turns, fromTokens, toTokens } = compaction;
  return (
    <div className="ai-dropped-history" data-testid="compacted-history" role="separator" data-turns={turns}>
      Earlier turns compacted: {turns} {turns === 1 ? 'turn' : 'turns'} → {formatTokens(toTokens)} tokens (from {formatTokens(fromTokens)}). The model gets
      Tandem&apos;s summary of the messages above ([ai] compact_at_percent); they stay here in full.
    </div>
  );
}

/** 1234 → "1.2k", 950 → "950". */
function formatTokens(tokens: number): string {
  return tokens < 1_000 ? String(tokens) : `${(tokens / 1_000).toFixed(1).replace(/\.0$/, '')}k`;
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
