import { useEffect, useMemo, useRef, useState } from 'react';
import { fetchSentPayload } from './agentRequests';
import { ScreenshotThumbnail } from './ScreenshotThumbnail';
import { readSentPayload, type SentRequestView } from './sentPayloadView';

/**
 * "What was sent": opens a dialog with the exact request behind an answer — system prompt
 * with the standing context, history, tool results, tools — after scrubbing, as the model
 * received it. Shown readable (each message and its parts); the raw JSON one click away.
 */
export function SentPayloadButton({ itemId }: { itemId: string }) {
  const [payload, setPayload] = useState<string | undefined>();
  const [raw, setRaw] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const request = useMemo(() => (payload === undefined ? undefined : readSentPayload(payload)), [payload]);

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
        onClick={async () => {
          setRaw(false);
          setPayload(await fetchSentPayload(itemId));
        }}
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
            <span className="sent-payload__size">
              {request?.model ? `${request.model} · ` : ''}
              {formatSize(payload.length)}
            </span>
            {request && (
              <button type="button" data-testid="sent-payload-raw" aria-pressed={raw} onClick={() => setRaw((value) => !value)}>
                {raw ? 'Readable' : 'Raw JSON'}
              </button>
            )}
            <button type="button" onClick={() => void navigator.clipboard?.writeText(payload)}>
              Copy JSON
            </button>
            <button type="button" data-testid="sent-payload-close" onClick={() => dialog.current?.close()}>
              Close
            </button>
          </header>
          {request && !raw ? <ReadableRequest request={request} /> : <pre className="sent-payload__body" data-testid="sent-payload-json">{payload}</pre>}
        </dialog>
      )}
    </>
  );
}

export function ReadableRequest({ request }: { request: SentRequestView }) {
  return (
    <div className="sent-payload__body sent-payload__readable" data-testid="sent-payload-readable">
      <section className="sent-payload__message" data-role="system">
        <h3>System prompt</h3>
        <pre className="sent-payload__text">{request.system}</pre>
      </section>
      {request.messages.map((message, index) => (
        <section key={index} className="sent-payload__message" data-role={message.role}>
          <h3>{message.role}</h3>
          {message.parts.map((part, partIndex) => (
            <div key={partIndex} className={`sent-payload__part sent-payload__part--${part.kind}`}>
              {part.label && <div className="sent-payload__label">{part.kind === 'tool-call' ? `calls ${part.label}` : part.label}</div>}
              {part.text && <pre className="sent-payload__text">{part.text}</pre>}
              {part.images?.map((src, imageIndex) => <ScreenshotThumbnail key={imageIndex} src={src} description="Image sent to the model" />)}
            </div>
          ))}
        </section>
      ))}
      {request.tools.length > 0 && <p className="sent-payload__tools">Tools offered: {request.tools.join(', ')}</p>}
    </div>
  );
}

function formatSize(chars: number): string {
  return chars < 10_000 ? `${chars} characters` : `${Math.round(chars / 1000)}k characters`;
}
