import { z } from 'zod';
import type { UiActionName } from '../../../shared/screenSteps';
import type { ComputerToolDefinition } from '../backends/modelBackend';
import { uiCommand, type UiRequest } from '../vision/uiRequest';
import { lookCommand } from '../vision/visionRequest';
import type { ProposedStep, UiTool } from './agentTool';
import { issueText } from './editFileTool';

const Coordinate = z.tuple([z.number().int().min(-1).max(100_000), z.number().int().min(-1).max(100_000)]);

/** The computer tool's input (computer_20250124): what each action needs is checked when it is mapped. */
const ComputerInputSchema = z.object({
  action: z.string().min(1).max(40),
  coordinate: Coordinate.optional(),
  start_coordinate: Coordinate.optional(),
  text: z.string().max(10_000).optional(),
  scroll_direction: z.enum(['up', 'down', 'left', 'right']).optional(),
  scroll_amount: z.number().int().min(0).max(50).optional(),
  duration: z.number().min(0).max(600).optional(),
});

type ComputerInput = z.infer<typeof ComputerInputSchema>;

/** Computer-use actions that map onto one generic UI action with a point. */
const POINTER: Record<string, UiActionName> = {
  left_click: 'click',
  right_click: 'right_click',
  middle_click: 'middle_click',
  double_click: 'double_click',
  triple_click: 'triple_click',
  mouse_move: 'move',
};

/** Actions of the tool Tandem does not do, and what to use instead. */
const NOT_DONE: Record<string, string> = {
  left_mouse_down: 'use left_click_drag',
  left_mouse_up: 'use left_click_drag',
  hold_key: 'use key with a chord (e.g. "shift+Tab")',
};

/**
 * Anthropic's computer-use tool (`computer_20250124`), offered instead of `screenshot` and
 * `ui_action` when the model can use it. Its display is the primary screen scaled as every
 * screenshot is (long side at most 1280 px); its points are pixels of that display, turned
 * into screen pixels by the engine. Each action becomes the same plan step as the generic
 * tools' (a screenshot is a look step, the rest UI action steps with their generic names).
 */
export const computerTool: UiTool & { definitionFor(display: { width: number; height: number }): ComputerToolDefinition } = {
  // Never offered as a function tool: the dispatcher sends definitionFor(display) instead.
  definition: {
    name: 'computer',
    description: "Anthropic's computer-use tool; offered as such.",
    input_schema: { type: 'object', properties: {} },
  },
  approval: 'gate',
  steps: 'ui',
  offeredWith: () => false,

  definitionFor(display) {
    return { type: 'computer_20250124', name: 'computer', display_width_px: display.width, display_height_px: display.height };
  },

  propose(input) {
    const parsed = ComputerInputSchema.safeParse(input);
    if (!parsed.success) return { ok: false, refusal: `Not done: the tool input was invalid (${issueText(parsed.error)}).` };
    return computerStep(parsed.data);
  },
};

function computerStep(input: ComputerInput): { ok: true; step: ProposedStep } | { ok: false; refusal: string } {
  const { action } = input;
  if (action === 'screenshot') {
    const vision = { look: 'screenshot' as const, target: { kind: 'screen' as const } };
    return { ok: true, step: { command: lookCommand(vision), purpose: '', vision } };
  }
  const instead = NOT_DONE[action];
  if (instead) return { ok: false, refusal: `Not done: Tandem does not do ${action}; ${instead}.` };
  const request = uiRequestFor(input);
  if (typeof request === 'string') return { ok: false, refusal: `Not done: ${request}.` };
  return { ok: true, step: { command: uiCommand(request), purpose: '', ui: request } };
}

/** The generic request for an action, or why it cannot be one. */
function uiRequestFor(input: ComputerInput): UiRequest | string {
  const point = input.coordinate ? { x: input.coordinate[0], y: input.coordinate[1] } : undefined;
  const base = { via: 'computer' as const };
  const pointer = POINTER[input.action];
  if (pointer) {
    if (!point) return `${input.action} needs "coordinate" (Tandem does not keep track of the pointer)`;
    if (input.text) return `${input.action} with keys held is not supported; press the keys with key, then click`;
    return { ...base, action: pointer, at: point };
  }
  switch (input.action) {
    case 'left_click_drag':
      if (!input.start_coordinate || !point) return 'left_click_drag needs "start_coordinate" and "coordinate"';
      return { ...base, action: 'drag', at: { x: input.start_coordinate[0], y: input.start_coordinate[1] }, to: point };
    case 'scroll': {
      if (!point || !input.scroll_direction) return 'scroll needs "coordinate" and "scroll_direction"';
      // "text" holds modifier keys during the scroll (ctrl+wheel zooms): not a plain scroll.
      if (input.text) return 'scroll with keys held is not supported; scroll without them, or use key';
      const amount = input.scroll_amount ?? 3;
      const scroll = { down: 0, right: 0 };
      if (input.scroll_direction === 'down' || input.scroll_direction === 'up') scroll.down = input.scroll_direction === 'down' ? amount : -amount;
      else scroll.right = input.scroll_direction === 'right' ? amount : -amount;
      return { ...base, action: 'scroll', at: point, scroll };
    }
    case 'type':
      return input.text === undefined ? 'type needs "text"' : { ...base, action: 'type', text: input.text };
    case 'key':
      return input.text ? { ...base, action: 'key', keys: input.text } : 'key needs "text", e.g. "ctrl+s"';
    case 'wait':
      return { ...base, action: 'wait', seconds: input.duration ?? 1 };
    case 'cursor_position':
      return { ...base, action: 'cursor_position' };
    default:
      return `"${input.action}" is not an action of the computer tool`;
  }
}
