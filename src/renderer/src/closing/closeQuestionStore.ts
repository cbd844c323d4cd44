import { create } from 'zustand';
import type { CloseQuestion } from '../../../shared/closeQuestion';

interface OpenQuestion extends CloseQuestion {
  /** Settles the promise `ask` returned: true closes. */
  settle(close: boolean): void;
}

interface CloseQuestionState {
  question: OpenQuestion | undefined;
  /** Shows the question; resolves true when the user chose to close, false when they cancelled. A second question while one is open is refused (false). */
  ask(question: CloseQuestion): Promise<boolean>;
  answer(close: boolean): void;
}

export const useCloseQuestionStore = create<CloseQuestionState>()((set, get) => ({
  question: undefined,
  ask: (question) => {
    if (get().question) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => set({ question: { ...question, settle: resolve } }));
  },
  answer: (close) => {
    const question = get().question;
    if (!question) return;
    set({ question: undefined });
    question.settle(close);
  },
}));
