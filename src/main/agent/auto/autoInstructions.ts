import { plural } from '../../../shared/countWords';

/** Goes to the model with the task (not shown in the panel): how an auto run differs from a conversation. */
export function autoInstructions(paneId: number, maxSteps: number): string {
  return [
    `(Auto mode: work on this task in pane ${paneId} until it is done, without waiting for the user to tell you the next step.`,
    'Propose one or a few steps at a time and look at their results before the next ones.',
    'Read-only (GREEN) commands run at once; other commands and every file edit wait for the user to approve them; RED commands are refused, and you are told why: find another way or leave it to the user.',
    'A step that fails or is refused ends its plan; you get the results at once.',
    `The run stops after ${plural(maxSteps, 'step')} or when its time or token budget runs out.`,
    'When the task is done, or cannot be done, answer without calling any tool: say briefly what you did and what is left.)',
  ].join(' ');
}
