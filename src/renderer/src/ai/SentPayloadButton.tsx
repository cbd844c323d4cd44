import { useEffect, useRef, useState } from 'react';
import { fetchSentPayload } from './agentRequests';

/**
 * "What was sent": opens a dialog with the exact request body behind an answer — system
 * prompt with the standing context, history, tool results, tools — after scrubbing, as the
 * model received it.
 */
export function SentPayloadButton({ itemId }: { itemId: string }) {
  const [payload, setPayload] = useState<string | undefined>();
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    if (payload !== undefined && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [payload]);

  return (
    <>
      <button
        type="button"
        className="ai-message__sent"
        data-testid="what-was-sent"
        title="Show exactly what this request sent to the model"
        onClick={async () => setPayload(await fetchSentPayload(itemId))}
      >
        What was sent
      </button>
      {payload !== undefined && (
        <dialog ref={dialog} className="sent-payload" data-testid="sent-payload" aria-label="What was sent to the model" onClose={() => setPayload(undefined)}
          // Esc closes the dialog; it must not also reach the panel, where it cancels the agent.
          onKeyDown={(event) => event.stopPropagation()}
        >
          <header className="sent-payload__head">
            <strong>What was sent to the model</strong>
            <span className="sent-payload__size">{formatSize(payload.length)}</span>
            <button type="button" onClick={() => void navigator.clipboard?.writeText(payload)}>
              Copy
            </button>
            <button type="button" data-testid="sent-payload-close" onClick={() => dialog.current?.close()}>
              Close
            </button>
          </header>
          <pre className="sent-payload__body">{payload}</pre>
        </dialog>
      )}
    </>
  );
}

function formatSize(chars: number): string {
  return chars < 10_000 ? `${chars} characters` : `${Math.round(chars / 1000)}k characters`;
}
