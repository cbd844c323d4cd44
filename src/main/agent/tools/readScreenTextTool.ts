import { lookCommand } from '../vision/visionRequest';
import type { LookTool } from './agentTool';
import { issueText } from './editFileTool';
import { ScreenshotInputSchema, TARGET_INPUT_SCHEMA, screenshotTarget } from './screenshotTool';

/**
 * `read_screen_text`: the words on a window, screen or region with their boxes (Tesseract
 * OCR), for a model without vision or one that wants coordinates; a pane's text comes exact
 * from the engine's mirror. A read step approved like a screenshot of the same kind of target.
 */
export const readScreenTextTool: LookTool = {
  definition: {
    name: 'read_screen_text',
    description:
      'Read the text on a target (the same targets as screenshot) with OCR, after the user approves it (a screenshot of that kind of target approved earlier in the conversation covers it). ' +
      'The result is the text by lines, then each word with its box [x,y,width,height] in the pixels of the scaled screenshot of that target, the space UI actions use. ' +
      'OCR can misread or miss words (small fonts, buttons); for a terminal pane the text is exact.',
    input_schema: TARGET_INPUT_SCHEMA,
  },
  approval: 'gate',
  steps: 'look',

  propose(input) {
    const parsed = ScreenshotInputSchema.safeParse(input);
    if (!parsed.success) return { ok: false, refusal: `Not read: the tool input was invalid (${issueText(parsed.error)}).` };
    const vision = { look: 'screen-text' as const, target: screenshotTarget(parsed.data) };
    const paneId = vision.target.kind === 'pane' ? vision.target.paneId : undefined;
    return { ok: true, step: { command: lookCommand(vision), purpose: parsed.data.purpose, paneId, vision } };
  },
};
