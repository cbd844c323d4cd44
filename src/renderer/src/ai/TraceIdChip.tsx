import { useEffect, useState } from 'react';
import { writeClipboard } from '../platform/clipboard';

const FEEDBACK_MS = 2_000;
/** As many hex digits as `tandem trace show` needs in practice; the whole id is in the title and copied. */
const SHORT_LENGTH = 8;

/** Where an answer or a step is in the traces (docs/telemetry.md): the id, short, with a Copy button that copies it whole. */
export function TraceIdChip({ traceId, spanId }: { traceId: string; spanId?: string }) {
  const [feedback, setFeedback] = useState<string | undefined>();

  useEffect(() => {
    if (!feedback) return;
    const timer = window.setTimeout(() => setFeedback(undefined), FEEDBACK_MS);
    return () => window.clearTimeout(timer);
  }, [feedback]);

  const title = [`trace ${traceId}`, spanId && `span ${spanId}`, `tandem trace show ${traceId.slice(0, SHORT_LENGTH)} prints it`].filter(Boolean).join('\n');
  return (
    <span className="ai-trace" data-testid="trace-id" data-trace-id={traceId} data-span-id={spanId} title={title}>
      <span className="ai-trace__id">trace {traceId.slice(0, SHORT_LENGTH)}</span>
      <button
        type="button"
        className="ai-trace__copy"
        data-action="copy-trace-id"
        aria-label={`Copy trace id ${traceId}`}
        onClick={() => void writeClipboard(traceId).then((ok) => setFeedback(ok ? 'Copied' : 'Could not copy'))}
      >
        {feedback ?? 'Copy'}
      </button>
    </span>
  );
}
