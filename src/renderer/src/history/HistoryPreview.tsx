import type { HistoryEntry } from '../../../shared/history';
import { detailLines } from './recordFormat';

/** The selected record's details and its output digest, as plain text (never as HTML). */
export function HistoryPreview({ record }: { record: HistoryEntry | undefined }) {
  if (!record) return <div className="history-preview history-preview--empty" data-testid="history-preview" />;
  const digest = record.outputDigest?.trimEnd();
  return (
    <div className="history-preview" data-testid="history-preview">
      <pre className="history-preview__command">{record.command}</pre>
      {detailLines(record).map((line) => (
        <div key={line} className="history-preview__detail">
          {line}
        </div>
      ))}
      {digest ? (
        <pre className="history-preview__digest" data-testid="history-digest">
          {digest}
          {record.digestCut ? '\n… (the rest of the digest is not shown)' : ''}
        </pre>
      ) : (
        <div className="history-preview__none">{record.imported ? 'Imported: no output was kept.' : 'No output was kept.'}</div>
      )}
    </div>
  );
}
