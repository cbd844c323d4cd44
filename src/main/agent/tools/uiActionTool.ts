import { z } from 'zod';
import type { UiActionName } from '../../../shared/screenSteps';
import { POINTER_ACTIONS, WINDOW_ACTIONS, uiCommand, type UiRequest, type UiTarget } from '../vision/uiRequest';
import type { ToolDefinition } from '../backends/modelBackend';
import type { UiTool } from './agentTool';
import { issueText } from './editFileTool';

const ACTIONS = [
  'click',
  'double_click',
  'triple_click',
  'right_click',
  'middle_click',
  'move',
  'drag',
  'scroll',
  'type',
  'key',
  'focus_window',
  'raise_window',
  'move_window',
  'resize_window',
  'close_window',
  'read_clipboard',
  'write_clipboard',
  'notify',
] as const satisfies readonly UiActionName[];

const Pixel = z.number().int().min(-1).max(100_000);
const MAX_TEXT = 10_000;

const UiActionInputSchema = z
  .object({
    action: z.enum(ACTIONS),
    x: Pixel.optional(),
    y: Pixel.optional(),
    to_x: Pixel.optional(),
    to_y: Pixel.optional(),
    target: z.enum(['pane', 'window', 'screen', 'region']).optional(),
    window_id: z.string().trim().min(1).max(200).optional(),
    screen: z.number().int().nonnegative().max(64).optional(),
    paneId: z.number().int().nonnegative().optional(),
    scroll_direction: z.enum(['up', 'down', 'left', 'right']).optional(),
    scroll_amount: z.number().int().min(1).max(50).default(3),
    text: z.string().max(MAX_TEXT).optional(),
    keys: z.string().trim().min(1).max(200).optional(),
    width: z.number().int().positive().max(100_000).optional(),
    height: z.number().int().positive().max(100_000).optional(),
    title: z.string().max(200).optional(),
    purpose: z.string().max(2_000).default(''),
  })
  .superRefine((input, context) => {
    const need = (ok: boolean, message: string) => ok || context.addIssue({ code: 'custom', message });
    const { action } = input;
    if (POINTER_ACTIONS.has(action)) need(input.x !== undefined && input.y !== undefined, `${action} needs "x" and "y", a point of the last screenshot of the target`);
    if (action === 'drag') need(input.to_x !== undefined && input.to_y !== undefined, 'drag needs "to_x" and "to_y"');
    if (action === 'scroll') need(input.scroll_direction !== undefined, 'scroll needs "scroll_direction"');
    if (action === 'type' || action === 'write_clipboard') need(input.text !== undefined, `${action} needs "text"`);
    if (action === 'key') need(input.keys !== undefined, 'key needs "keys", e.g. "ctrl+s" or "Return"');
    if (WINDOW_ACTIONS.has(action)) need(input.window_id !== undefined, `${action} needs "window_id" (from list_windows)`);
    if (action === 'move_window') need(input.x !== undefined && input.y !== undefined, 'move_window needs "x" and "y" in screen pixels');
    if (action === 'resize_window') need(input.width !== undefined && input.height !== undefined, 'resize_window needs "width" and "height"');
    if (action === 'notify') need(input.title !== undefined, 'notify needs "title"');
    if (input.target === 'window') need(input.window_id !== undefined, 'target "window" needs "window_id"');
  });

type UiActionInput = z.infer<typeof UiActionInputSchema>;

const SCROLL: Record<NonNullable<UiActionInput['scroll_direction']>, (amount: number) => { down: number; right: number }> = {
  down: (amount) => ({ down: amount, right: 0 }),
  up: (amount) => ({ down: -amount, right: 0 }),
  right: (amount) => ({ down: 0, right: amount }),
  left: (amount) => ({ down: 0, right: -amount }),
};

/** The request a valid input asks for. */
export function uiActionRequest(input: UiActionInput): UiRequest {
  const point = input.x !== undefined && input.y !== undefined ? { x: input.x, y: input.y } : undefined;
  return {
    action: input.action,
    via: 'ui_action',
    target: WINDOW_ACTIONS.has(input.action) ? undefined : uiTarget(input),
    at: point,
    ...(input.to_x !== undefined && input.to_y !== undefined ? { to: { x: input.to_x, y: input.to_y } } : {}),
    ...(input.scroll_direction ? { scroll: SCROLL[input.scroll_direction](input.scroll_amount) } : {}),
    text: input.text,
    keys: input.keys,
    windowId: input.window_id,
    width: input.width,
    height: input.height,
    title: input.title,
  };
}

function uiTarget(input: UiActionInput): UiTarget | undefined {
  switch (input.target) {
    case undefined:
      return undefined;
    case 'pane':
      return { kind: 'pane', paneId: input.paneId };
    case 'window':
      return { kind: 'window', windowId: input.window_id! };
    case 'screen':
      return { kind: 'screen', screen: input.screen };
    case 'region':
      return { kind: 'region' };
  }
}

function uiActionDefinition(ocr: boolean): ToolDefinition {
  return {
    name: 'ui_action',
    description:
      'Act on the desktop as the user would with mouse and keyboard, after the user approves the step (each one, unless their policy allows the application). ' +
      `Points ("x","y"; "to_x","to_y" for drag) are pixels of the LAST screenshot${ocr ? ' (or read_screen_text)' : ''} of the target: "target" as in screenshot ` +
      '(with "window_id" / "screen" / "paneId"; "region" means the last region), default the target of the last screenshot. Take a screenshot first, and a new one after acting to see the result. ' +
      'Actions: click, double_click, triple_click, right_click, middle_click, move, drag, scroll ("scroll_direction", "scroll_amount" notches), ' +
      'type ("text", into the focused window), key ("keys": xdotool names, e.g. "ctrl+s", "Return", "alt+F4"), ' +
      'focus_window / raise_window / close_window ("window_id"), move_window ("window_id", "x","y" in screen pixels), resize_window ("window_id", "width","height"), ' +
      'read_clipboard, write_clipboard ("text"), notify ("title", "text"). ' +
      'Typing, pressing keys, or a middle or right click (which can paste) into a terminal window is refused: use run_command. Windows on the privacy list cannot be acted on.',
    input_schema: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: [...ACTIONS] },
        x: { type: 'integer', description: 'Point in the last screenshot of the target (image pixels); for move_window, screen pixels.' },
        y: { type: 'integer' },
        to_x: { type: 'integer', description: 'drag: where to drop, in the same screenshot.' },
        to_y: { type: 'integer' },
        target: { type: 'string', enum: ['pane', 'window', 'screen', 'region'], description: 'Whose screenshot the point is in; default: the last screenshot taken.' },
        window_id: { type: 'string', description: 'target "window", or the window of a window action (from list_windows).' },
        screen: { type: 'integer' },
        paneId: { type: 'integer' },
        scroll_direction: { type: 'string', enum: ['up', 'down', 'left', 'right'] },
        scroll_amount: { type: 'integer', description: 'Wheel notches (default 3).' },
        text: { type: 'string' },
        keys: { type: 'string' },
        width: { type: 'integer' },
        height: { type: 'integer' },
        title: { type: 'string' },
        purpose: { type: 'string', description: 'One short sentence: what this does and why.' },
      },
      required: ['action'],
    },
  };
}

/**
 * `ui_action`: a click, drag, scroll, typed text, key chord, a change to a window, the
 * clipboard or a notification. Every call is a plan step the user approves (YELLOW), unless
 * `[approval.ui]` allows the application; typing into a terminal is RED.
 */
export const uiActionTool: UiTool = {
  definition: uiActionDefinition(true),
  offeredWith: (desktop) => desktop.looks && desktop.input && !desktop.computerDisplay,
  definitionWith: (desktop) => uiActionDefinition(desktop.ocr),
  approval: 'gate',
  steps: 'ui',

  propose(input) {
    const parsed = UiActionInputSchema.safeParse(input);
    if (!parsed.success) return { ok: false, refusal: `Not done: the tool input was invalid (${issueText(parsed.error)}).` };
    const ui = uiActionRequest(parsed.data);
    return { ok: true, step: { command: uiCommand(ui), purpose: parsed.data.purpose, ui } };
  },
};
