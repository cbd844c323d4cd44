import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useCloseQuestionStore } from './closeQuestionStore';

/**
 * Asked before closing a pane, a tab or the window ends running programs. Cancel has the
 * focus, so Enter keeps everything; Esc or a click outside cancels too; Close is the one
 * way to go on. The keyboard stays in the dialog until it is answered.
 */
export function CloseQuestionDialog() {
  const question = useCloseQuestionStore((state) => state.question);
  const answer = useCloseQuestionStore((state) => state.answer);
  const dialogRef = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!question) return;
    cancelRef.current?.focus();
    const keepFocus = (event: FocusEvent) => {
      const dialog = dialogRef.current;
      if (dialog && (!(event.target instanceof Node) || !dialog.contains(event.target))) cancelRef.current?.focus();
    };
    document.addEventListener('focusin', keepFocus);
    return () => document.removeEventListener('focusin', keepFocus);
  }, [question]);

  if (!question) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      answer(false);
    } else if (event.key === 'Tab') {
      // Two buttons: Tab and Shift+Tab go from one to the other, never out of the dialog.
      event.preventDefault();
      (document.activeElement === cancelRef.current ? closeRef : cancelRef).current?.focus();
    }
  };

  return (
    <div className="overlay" onMouseDown={() => answer(false)}>
      <div
        ref={dialogRef}
        className="close-question"
        data-testid="close-question"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="close-question-title"
        aria-describedby="close-question-message"
        onMouseDown={(event) => event.stopPropagation()}
        onKeyDown={onKeyDown}
      >
        <h2 id="close-question-title" className="close-question__title">
          {question.title}
        </h2>
        <p id="close-question-message" className="close-question__message" data-testid="close-question-message">
          {question.message}
        </p>
        <div className="close-question__actions">
          <button type="button" ref={cancelRef} data-testid="close-question-cancel" onClick={() => answer(false)}>
            Cancel
          </button>
          <button type="button" ref={closeRef} className="button--danger" data-testid="close-question-close" onClick={() => answer(true)}>
            {question.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
