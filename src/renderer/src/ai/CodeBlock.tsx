import { useEffect, useState } from 'react';
import { writeClipboard } from '../platform/clipboard';
import { INSERT_RESULT_TEXT, insertIntoTerminal } from './insertIntoTerminal';

const FEEDBACK_MS = 2_000;

/** A fenced code block of an answer: Copy, and Insert into terminal (on the prompt, not run). */
export function CodeBlock({ code, language }: { code: string; language: string | undefined }) {
  const [feedback, setFeedback] = useState<string | undefined>();
  const text = code.replace(/\n$/, '');

  useEffect(() => {
    if (!feedback) return;
    const timer = window.setTimeout(() => setFeedback(undefined), FEEDBACK_MS);
    return () => window.clearTimeout(timer);
  }, [feedback]);

  return (
    <div className="ai-code" data-testid="ai-code" data-language={language}>
      <div className="ai-code__bar">
        <span className="ai-code__language">{language || 'code'}</span>
        {feedback ? (
          <span className="ai-code__feedback" role="status" title={feedback}>
            {feedback}
          </span>
        ) : (
          <span className="ai-code__bar-spacer" />
        )}
        <button
          type="button"
          data-action="copy-code"
          onClick={() => void writeClipboard(text).then((ok) => setFeedback(ok ? 'Copied' : 'Could not copy'))}
        >
          Copy
        </button>
        <button
          type="button"
          data-action="insert-code"
          title="Put it on the active terminal's prompt without running it"
          onClick={() => setFeedback(INSERT_RESULT_TEXT[insertIntoTerminal(text)])}
        >
          Insert into terminal
        </button>
      </div>
      <pre className="ai-code__body">
        <code>{text}</code>
      </pre>
    </div>
  );
}
