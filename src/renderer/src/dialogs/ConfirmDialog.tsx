import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface ConfirmDialogProps {
  /** Test id of the dialog; its Cancel button is `<testId>-cancel`. */
  testId: string;
  confirmTestId: string;
  /** Added to `confirm-dialog`, for a dialog that needs other room. */
  className?: string;
  title: ReactNode;
  /** What the question is about; the dialog's description. */
  children: ReactNode;
  confirmLabel: string;
  confirmKind: 'danger' | 'primary';
  onAnswer(confirmed: boolean): void;
}

/**
 * A question whose safe answer is No. Cancel has the focus, so Enter cancels; Esc or a click
 * outside cancels too; the confirm button is the one way to go on. Modal: the keyboard stays
 * in the dialog until it is answered.
 */
export function ConfirmDialog({ testId, confirmTestId, className, title, children, confirmLabel, confirmKind, onAnswer }: ConfirmDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  // Answering may move the focus elsewhere (back to a terminal) before the dialog unmounts.
  const answeredRef = useRef(false);

  useEffect(() => {
    cancelRef.current?.focus();
    const keepFocus = (event: FocusEvent) => {
      const dialog = dialogRef.current;
      if (!dialog || answeredRef.current) return;
      if (!(event.target instanceof Node) || !dialog.contains(event.target)) cancelRef.current?.focus();
    };
    document.addEventListener('focusin', keepFocus);
    return () => document.removeEventListener('focusin', keepFocus);
  }, []);

  const answer = (confirmed: boolean) => {
    answeredRef.current = true;
    onAnswer(confirmed);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      answer(false);
    } else if (event.key === 'Tab') {
      // Two buttons: Tab and Shift+Tab go from one to the other, never out of the dialog.
      event.preventDefault();
      (document.activeElement === cancelRef.current ? confirmRef : cancelRef).current?.focus();
    }
  };

  return (
    <div className="overlay" onMouseDown={() => answer(false)}>
      <div
        ref={dialogRef}
        className={`confirm-dialog${className ? ` ${className}` : ''}`}
        data-testid={testId}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onMouseDown={(event) => event.stopPropagation()}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="confirm-dialog__title">
          {title}
        </h2>
        <div id={bodyId}>{children}</div>
        <div className="confirm-dialog__actions">
          <button type="button" ref={cancelRef} data-testid={`${testId}-cancel`} onClick={() => answer(false)}>
            Cancel
          </button>
          <button type="button" ref={confirmRef} className={`button--${confirmKind}`} data-testid={confirmTestId} onClick={() => answer(true)}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
