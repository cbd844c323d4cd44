import type { BlockSummaryItem } from '../../../shared/agent';
import { plural } from '../../../shared/countWords';
import { AssistantText } from './AssistantText';

/** Who wrote it, in a few words for the item's header. */
function sourceLabel(item: BlockSummaryItem): string {
  const source = item.source;
  if (!source) return 'summarising…';
  switch (source.kind) {
    case 'model':
      return `summary by ${source.model}`;
    case 'local':
      return 'local fallback (no model summary)';
    case 'as-is':
      return 'shown as is';
  }
}

/**
 * "Summarize output" from a block's menu: which block (command, exit code, id), who wrote the
 * summary — the small model, or local filtering and why — and the summary itself.
 */
export function BlockSummaryMessage({ item }: { item: BlockSummaryItem }) {
  const source = item.source;
  const failed = item.exitCode !== undefined && item.exitCode !== 0;
  return (
    <div
      className="ai-message ai-message--block-summary"
      data-testid="ai-message"
      data-role="block-summary"
      data-item-id={item.id}
      data-block-id={item.blockId}
      data-state={item.state}
      data-source={source?.kind}
      aria-busy={item.state === 'working'}
    >
      <div className="ai-block-summary__header">
        <span className="ai-tag">Summary of</span>
        <code className="ai-block-summary__command" title={`block ${item.blockId} in pane ${item.paneId}`}>
          $ {item.command || '(unknown command)'}
        </code>
        {item.exitCode !== undefined && <span className={`ai-block-summary__exit${failed ? ' ai-block-summary__exit--failed' : ''}`}>exit {item.exitCode}</span>}
      </div>
      <p className="ai-block-summary__source" data-testid="summary-source">
        {sourceLabel(item)}
        {item.lineCount !== undefined && ` · ${plural(item.lineCount, 'line')}`}
        {item.outputType && item.outputType !== 'generic' && ` · ${item.outputType}`}
        {source && source.kind !== 'model' && ` · ${source.reason}`}
      </p>
      {item.state === 'done' &&
        (source?.kind === 'model' ? (
          <AssistantText text={item.text} />
        ) : (
          <pre className="ai-block-summary__text">{item.text || '(no output)'}</pre>
        ))}
    </div>
  );
}
