import { memo, type ReactNode } from 'react';
import type { AttachmentView, ConversationItem } from '../../../shared/agent';
import { cancelAgent, offlineAction, retryRequest } from './agentRequests';
import { AssistantText } from './AssistantText';
import { AutoSummaryMessage } from './AutoSummaryMessage';
import { BlockSummaryMessage } from './BlockSummaryMessage';
import { FallbackCard } from './FallbackCard';
import { useConversationStore } from './conversationStore';
import { PlanCard } from './PlanCard';
import { SentPayloadButton } from './SentPayloadButton';
import { TraceIdChip } from './TraceIdChip';

type ItemOf<R extends ConversationItem['role']> = Extract<ConversationItem, { role: R }>;

/** One item of the conversation. Memoised: streaming into one answer re-renders only that one. */
export const MessageItem = memo(function MessageItem({ item }: { item: ConversationItem }) {
  switch (item.role) {
    case 'user':
      return <UserMessage item={item} />;
    case 'assistant':
      return <AssistantMessage item={item} />;
    case 'tool':
      return <ToolMessage item={item} />;
    case 'error':
      return <ErrorMessage item={item} />;
    case 'retry':
      return <RetryCard item={item} />;
    case 'fallback':
      return <FallbackCard item={item} />;
    case 'plan':
      return <PlanCard item={item} />;
    case 'summary':
      return <AutoSummaryMessage item={item} />;
    case 'block-summary':
      return <BlockSummaryMessage item={item} />;
  }
});

const SOURCE_TAGS: Partial<Record<ItemOf<'user'>['source'], string>> = {
  prompt: 'from the prompt',
  note: 'note',
  command: 'ran in the terminal',
  auto: '!auto',
};

function UserMessage({ item }: { item: ItemOf<'user'> }) {
  const tag = SOURCE_TAGS[item.source];
  return (
    <div
      className={`ai-message ai-message--user ai-message--${item.source}`}
      data-testid="ai-message"
      data-role="user"
      data-item-id={item.id}
      data-source={item.source}
    >
      {tag && (
        <span className="ai-tag" data-testid={item.source === 'prompt' ? 'from-prompt' : undefined}>
          {tag}
        </span>
      )}
      {item.source === 'command' ? (
        <code className="ai-message__command">$ {item.text.replace(/^!\s*/, '')}</code>
      ) : (
        item.text && <div className="ai-message__text">{item.text}</div>
      )}
      {item.redacted && (
        <p className="ai-message__redacted" data-testid="redacted" title="The model received [REDACTED:kind] in their place">
          {item.redacted} before sending
        </p>
      )}
      {item.attachments.length > 0 && (
        <ul className="ai-message__attachments" aria-label="Attached commands">
          {item.attachments.map((attachment) => (
            <SentAttachment key={attachment.blockId} attachment={attachment} />
          ))}
        </ul>
      )}
    </div>
  );
}

function SentAttachment({ attachment }: { attachment: AttachmentView }) {
  const failed = attachment.exitCode !== undefined && attachment.exitCode !== 0;
  const tooltip = [attachment.command, attachment.cwd && `in ${attachment.cwd}`, attachment.excerpt].filter(Boolean).join('\n');
  return (
    <li
      className={`ai-chip${failed ? ' ai-chip--failure' : ''}`}
      data-testid="message-attachment"
      data-block-id={attachment.blockId}
      title={tooltip}
    >
      <span className="ai-chip__command">{attachment.command || '(unknown command)'}</span>
      {attachment.exitCode !== undefined && <span className="ai-chip__exit">exit {attachment.exitCode}</span>}
    </li>
  );
}

function AssistantMessage({ item }: { item: ItemOf<'assistant'> }) {
  return (
    <div
      className={`ai-message ai-message--assistant${item.streaming ? ' ai-message--streaming' : ''}`}
      data-testid="ai-message"
      data-role="assistant"
      data-item-id={item.id}
      data-streaming={item.streaming ? 'true' : undefined}
    >
      {item.text !== '' && <AssistantText text={item.text} />}
      {item.streaming && item.text === '' && <WritingCursor />}
      {item.interrupted && (
        <p className="ai-message__interrupted" data-testid="interrupted">
          Stopped early: {item.interrupted}
        </p>
      )}
      {item.sent && !item.streaming && <SentPayloadButton itemId={item.id} />}
      {item.traceId && !item.streaming && (
        <div className="ai-message__trace">
          <TraceIdChip traceId={item.traceId} />
        </div>
      )}
    </div>
  );
}

/** The cursor of an answer that has not started; none while the request waits to be retried (its card says so). */
function WritingCursor() {
  const retrying = useConversationStore((state) => state.conversation?.status === 'retrying');
  return retrying ? null : <span className="ai-message__cursor" aria-label="writing" />;
}

/** `code` spans in a one-line summary ("ran `ls` → exit 0"). */
function withInlineCode(text: string): ReactNode[] {
  return text.split('`').map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));
}

function ToolMessage({ item }: { item: ItemOf<'tool'> }) {
  return (
    <div
      className={`ai-message ai-message--tool${item.ok ? '' : ' ai-message--tool-failed'}`}
      data-testid="ai-message"
      data-role="tool"
      data-item-id={item.id}
      data-tool={item.tool}
      data-ok={item.ok ? 'true' : 'false'}
      title={item.tool}
    >
      <span className="ai-message__tool-icon" aria-label={item.ok ? 'done' : 'failed'}>
        {item.ok ? '✓' : '✗'}
      </span>
      <span className="ai-message__tool-summary">{withInlineCode(item.summary)}</span>
      {item.redacted && (
        <span className="ai-message__redacted" data-testid="redacted" title="The model received [REDACTED:kind] in their place">
          · {item.redacted}
        </span>
      )}
    </div>
  );
}

function ErrorMessage({ item }: { item: ItemOf<'error'> }) {
  const retried = item.attempts !== undefined && item.attempts > 1;
  return (
    <div className="ai-message ai-message--error" data-testid="ai-message" data-role="error" data-item-id={item.id} data-attempts={item.attempts}>
      <strong className="ai-message__error-label">{retried ? `Failed after ${item.attempts} attempts` : 'Error'}</strong>
      <span className="ai-message__text">{item.text}</span>
      {(item.retryable || item.sentId || item.offerQueue) && (
        <div className="ai-message__actions">
          {item.offerQueue && (
            <button type="button" className="button--primary" data-testid="error-queue" title="Keep it and send it when a backend answers again" onClick={() => void offlineAction('queue')}>
              Queue it
            </button>
          )}
          {item.retryable && (
            <button type="button" data-testid="error-retry" title="Send the same request again" onClick={() => void retryRequest()}>
              Retry
            </button>
          )}
          {item.sentId && <SentPayloadButton itemId={item.sentId} />}
        </div>
      )}
    </div>
  );
}

/** 45 s, 2 min 5 s (a server may ask for up to ten minutes). */
export function formatWait(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  const rest = seconds % 60;
  return `${Math.floor(seconds / 60)} min${rest ? ` ${rest} s` : ''}`;
}

/** A failed request waiting to be sent again: the countdown, what happens then, and Cancel. Cancelled, it stays as a marker. */
function RetryCard({ item }: { item: ItemOf<'retry'> }) {
  const waiting = item.state === 'waiting';
  return (
    <div
      className={`ai-message ai-message--retry ai-message--retry-${item.state}`}
      data-testid="ai-message"
      data-role="retry"
      data-item-id={item.id}
      data-state={item.state}
      role={waiting ? 'status' : undefined}
    >
      <strong className="ai-message__retry-label">{waiting ? 'Retrying' : 'Retry cancelled'}</strong>
      <span className="ai-message__text">{item.reason}</span>
      {waiting ? (
        <>
          <p className="ai-retry__countdown" data-testid="retry-countdown" data-seconds={item.secondsLeft}>
            Sending it again in <strong>{formatWait(item.secondsLeft)}</strong> (attempt {item.attempt} of {item.attempts}). Nothing you typed is lost.
          </p>
          <div className="ai-message__actions">
            <button type="button" data-testid="retry-cancel" title="Do not send it again (Esc)" onClick={() => void cancelAgent()}>
              Cancel
            </button>
          </div>
        </>
      ) : (
        <p className="ai-retry__countdown">Not sent again. Your message stays in the conversation; send another to go on.</p>
      )}
    </div>
  );
}
