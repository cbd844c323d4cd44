import { ConfirmDialog } from '../dialogs/ConfirmDialog';
import { useCloseQuestionStore } from './closeQuestionStore';

/** Asked before closing a pane, a tab or the window ends running programs; Enter keeps everything. */
export function CloseQuestionDialog() {
  const question = useCloseQuestionStore((state) => state.question);
  const answer = useCloseQuestionStore((state) => state.answer);
  if (!question) return null;
  return (
    <ConfirmDialog
      testId="close-question"
      confirmTestId="close-question-close"
      title={question.title}
      confirmLabel={question.confirmLabel}
      confirmKind="danger"
      onAnswer={answer}
    >
      <p className="close-question__message" data-testid="close-question-message">
        {question.message}
      </p>
    </ConfirmDialog>
  );
}
