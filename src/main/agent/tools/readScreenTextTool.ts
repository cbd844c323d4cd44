import { lookCommand } from '../vision/visionRequest';
import type { ToolDefinition } from '../backends/modelBackend';
import type { DesktopOffer } from '../vision/desktopOffer';
import type { LookTool } from './agentTool';
import { issueText } from './editFileTool';
import { ScreenshotInputSchema, TARGET_INPUT_SCHEMA, screenshotTarget } from './screenshotTool';

function readScreenTextDefinition(desktop: DesktopOffer): ToolDefinition {
  const boxes = desktop.computerDisplay
    ? `in pixels of the computer tool's display (${desktop.computerDisplay.width}×${desktop.computerDisplay.height}, the space of its screenshots and clicks), whatever the target: click a word's centre with the computer tool. `
    : `in the pixels of the scaled screenshot of that target${desktop.input ? ', the space UI actions use' : ''}. `;
  const targets = desktop.computerDisplay
    ? 'target "pane" (a terminal pane\'s exact text), "window" (its "window_id" from list_windows), "screen" (monitor index "screen", default the first) or "region" (x, y, width, height in screen pixels)'
    : 'a target (the same targets as screenshot)';
  return {
    name: 'read_screen_text',
    description:
      `Read the text on ${targets} with OCR, after the user approves it (a look at that kind of target approved earlier in the conversation covers it). ` +
      `The result is the text by lines, then each word with its box [x,y,width,height] ${boxes}` +
      'OCR can misread or miss words (small fonts, buttons); for a terminal pane the text is exact.',
    input_schema: TARGET_INPUT_SCHEMA,
  };
}

/**
 * `read_screen_text`: the words on a window, screen or region with their boxes (Tesseract
 * OCR), for a model without vision or one that wants coordinates; a pane's text comes exact
 * from the engine's mirror. A read step approved like a screenshot of the same kind of target.
 */
export const readScreenTextTool: LookTool = {
  definition: readScreenTextDefinition({ looks: true, ocr: true, input: true }),
  offeredWith: (desktop) => desktop.looks && desktop.ocr,
  definitionWith: readScreenTextDefinition,
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
