import { describe, expect, it } from 'vitest';
import { useCloseQuestionStore } from '../../src/renderer/src/closing/closeQuestionStore';

const question = { title: 'Close this pane?', message: 'vim is running in this pane. Closing ends it.', confirmLabel: 'Close Pane', programs: ['vim'] };

describe('the open close question', () => {
  it('settles with the answer; a second question while one is open is refused, not stacked', async () => {
    const store = useCloseQuestionStore.getState();
    const first = store.ask(question);
    expect(useCloseQuestionStore.getState().question?.message).toBe(question.message);
    await expect(store.ask({ ...question, title: 'Close this tab?' })).resolves.toBe(false);
    expect(useCloseQuestionStore.getState().question?.title).toBe('Close this pane?');
    useCloseQuestionStore.getState().answer(false);
    await expect(first).resolves.toBe(false);
    expect(useCloseQuestionStore.getState().question).toBeUndefined();

    const second = useCloseQuestionStore.getState().ask(question);
    useCloseQuestionStore.getState().answer(true);
    await expect(second).resolves.toBe(true);
    // An answer with nothing open does nothing.
    useCloseQuestionStore.getState().answer(true);
    expect(useCloseQuestionStore.getState().question).toBeUndefined();
  });
});
