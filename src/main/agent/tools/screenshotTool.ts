import { z } from 'zod';
import { lookCommand, type ScreenshotTarget } from '../vision/visionRequest';
import type { ToolDefinition } from '../backends/modelBackend';
import type { LookTool } from './agentTool';
import { issueText } from './editFileTool';

const Pixels = z.number().int().nonnegative().max(100_000);

export const ScreenshotInputSchema = z
  .object({
    target: z.enum(['pane', 'window', 'screen', 'region']),
    window_id: z.string().trim().min(1).max(200).optional(),
    screen: z.number().int().nonnegative().max(64).optional(),
    paneId: z.number().int().nonnegative().optional(),
    x: Pixels.optional(),
    y: Pixels.optional(),
    width: Pixels.positive().optional(),
    height: Pixels.positive().optional(),
    purpose: z.string().max(2_000).default(''),
  })
  .superRefine((input, context) => {
    if (input.target === 'window' && !input.window_id) context.addIssue({ code: 'custom', message: 'target "window" needs "window_id" (from list_windows)' });
    if (input.target === 'region' && [input.x, input.y, input.width, input.height].some((value) => value === undefined)) {
      context.addIssue({ code: 'custom', message: 'target "region" needs "x", "y", "width" and "height" in screen pixels' });
    }
  });

/** The input schema the model sees, shared with read_screen_text. */
export const TARGET_INPUT_SCHEMA = {
  type: 'object' as const,
  properties: {
    target: { type: 'string', enum: ['pane', 'window', 'screen', 'region'] },
    window_id: { type: 'string', description: 'For target "window": its id from list_windows.' },
    screen: { type: 'integer', description: 'For target "screen": the monitor index (0 = first).' },
    paneId: { type: 'integer', description: 'For target "pane": the pane; omit for the active pane.' },
    x: { type: 'integer', description: 'For target "region": left edge in screen pixels.' },
    y: { type: 'integer', description: 'For target "region": top edge in screen pixels.' },
    width: { type: 'integer', description: 'For target "region": width in screen pixels.' },
    height: { type: 'integer', description: 'For target "region": height in screen pixels.' },
    purpose: { type: 'string', description: 'One short sentence: what you want to see and why.' },
  },
  required: ['target'],
};

/** The target the model named, once its input is valid. */
export function screenshotTarget(input: z.infer<typeof ScreenshotInputSchema>): ScreenshotTarget {
  switch (input.target) {
    case 'pane':
      return { kind: 'pane', paneId: input.paneId };
    case 'window':
      return { kind: 'window', windowId: input.window_id! };
    case 'screen':
      return { kind: 'screen', screen: input.screen };
    case 'region':
      return { kind: 'region', rect: { x: input.x!, y: input.y!, width: input.width!, height: input.height! } };
  }
}

function screenshotDefinition(uiActions: boolean): ToolDefinition {
  return {
    name: 'screenshot',
    description:
      'Look at the screen, after the user approves it (the first time per kind of target in a conversation, unless their policy allows it). ' +
      'target "pane": the exact text on a terminal pane\'s screen, with an image of the pane as drawn in the desktop app (a browser page cannot capture itself: text only there). ' +
      '"window": a window by its id from list_windows. "screen": a whole screen (monitor index "screen", default the first). "region": a rectangle in screen pixels. ' +
      `Images are PNG, scaled so the long side is at most 1280 px; the result states the scale${uiActions ? ', and points in that image are what later UI actions use' : ''}. ` +
      'Windows on the user\'s privacy list (password managers) are never captured: refused as targets, blacked out in screen captures.',
    input_schema: TARGET_INPUT_SCHEMA,
  };
}

/**
 * `screenshot`: an image of a window, a screen or a region (PNG, long side at most 1280 px, the
 * scale stated), or a pane's exact screen text (with its image in the desktop app). A read
 * step: `[approval.vision]`, and without a policy the first look at each kind of target in a
 * conversation asks.
 */
export const screenshotTool: LookTool = {
  definition: screenshotDefinition(true),
  offeredWith: (desktop) => desktop.looks && !desktop.computerDisplay,
  definitionWith: (desktop) => screenshotDefinition(desktop.input),
  approval: 'gate',
  steps: 'look',

  propose(input) {
    const parsed = ScreenshotInputSchema.safeParse(input);
    if (!parsed.success) return { ok: false, refusal: `Not taken: the tool input was invalid (${issueText(parsed.error)}).` };
    const vision = { look: 'screenshot' as const, target: screenshotTarget(parsed.data) };
    const paneId = vision.target.kind === 'pane' ? vision.target.paneId : undefined;
    return { ok: true, step: { command: lookCommand(vision), purpose: parsed.data.purpose, paneId, vision } };
  },
};
