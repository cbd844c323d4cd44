import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UiActionName } from '../../src/shared/screenSteps';
import { supportsComputerUse } from '../../src/main/agent/modelCatalog';
import type { AgentTool, ProposedStep } from '../../src/main/agent/tools/agentTool';
import { computerTool } from '../../src/main/agent/tools/computerTool';
import { uiActionRequest, uiActionTool } from '../../src/main/agent/tools/uiActionTool';
import type { UiRequest } from '../../src/main/agent/vision/uiRequest';

// ui_action's input → UiRequest, the computer-use tool's actions → the same steps, which
// models can use the computer tool (desktopToolOffer.test.ts: when the dispatcher offers it).

function proposed(tool: AgentTool, input: unknown): { ok: true; step: ProposedStep } | { ok: false; refusal: string } {
  if (tool.approval !== 'gate') throw new Error(`${tool.definition.name} proposes no steps`);
  return tool.propose(input);
}

function uiOf(tool: AgentTool, input: unknown): UiRequest {
  const result = proposed(tool, input);
  if (!result.ok) throw new Error(`refused: ${result.refusal}`);
  if (!result.step.ui) throw new Error('not a UI step');
  return result.step.ui;
}

function refusalOf(tool: AgentTool, input: unknown): string {
  const result = proposed(tool, input);
  if (result.ok) throw new Error(`not refused: ${JSON.stringify(result.step)}`);
  return result.refusal;
}

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
] as const;

const WINDOW = new Set<string>(['focus_window', 'raise_window', 'move_window', 'resize_window', 'close_window']);

/** What each action needs, as the tool's description promises. */
const REQUIRED: Record<(typeof ACTIONS)[number], string[]> = {
  click: ['x', 'y'],
  double_click: ['x', 'y'],
  triple_click: ['x', 'y'],
  right_click: ['x', 'y'],
  middle_click: ['x', 'y'],
  move: ['x', 'y'],
  drag: ['x', 'y', 'to_x', 'to_y'],
  scroll: ['x', 'y', 'scroll_direction'],
  type: ['text'],
  key: ['keys'],
  focus_window: ['window_id'],
  raise_window: ['window_id'],
  move_window: ['window_id', 'x', 'y'],
  resize_window: ['window_id', 'width', 'height'],
  close_window: ['window_id'],
  read_clipboard: [],
  write_clipboard: ['text'],
  notify: ['title'],
};

const pixel = fc.integer({ min: -1, max: 100_000 });
const fullInput = fc.record({
  action: fc.constantFrom(...ACTIONS),
  x: pixel,
  y: pixel,
  to_x: pixel,
  to_y: pixel,
  scroll_direction: fc.constantFrom('up', 'down', 'left', 'right'),
  scroll_amount: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
  text: fc.string({ maxLength: 80 }),
  keys: fc.stringMatching(/^[a-zA-Z0-9+]{1,20}$/),
  window_id: fc.stringMatching(/^0x[0-9a-f]{1,8}$/),
  width: fc.integer({ min: 1, max: 100_000 }),
  height: fc.integer({ min: 1, max: 100_000 }),
  title: fc.string({ maxLength: 40 }),
  target: fc.option(fc.constantFrom('pane', 'window', 'screen', 'region'), { nil: undefined }),
  screen: fc.option(fc.integer({ min: 0, max: 64 }), { nil: undefined }),
  paneId: fc.option(fc.integer({ min: 0, max: 99 }), { nil: undefined }),
});

describe('ui_action input → request', () => {
  it('every valid input maps onto the request its fields name', () => {
    fc.assert(
      fc.property(fullInput, (input) => {
        const ui = uiOf(uiActionTool, input);
        expect(ui).toEqual(uiActionRequest({ ...input, scroll_amount: input.scroll_amount ?? 3, purpose: '' }));
        expect(ui.action).toBe(input.action);
        expect(ui.via).toBe('ui_action');
        expect(ui.at).toEqual({ x: input.x, y: input.y });
        expect(ui.to).toEqual({ x: input.to_x, y: input.to_y });
        const amount = input.scroll_amount ?? 3;
        const sign = input.scroll_direction === 'up' || input.scroll_direction === 'left' ? -1 : 1;
        const vertical = input.scroll_direction === 'up' || input.scroll_direction === 'down';
        // Positive: down / right.
        expect(ui.scroll).toEqual({ down: vertical ? sign * amount : 0, right: vertical ? 0 : sign * amount });
        expect({ text: ui.text, keys: ui.keys, windowId: ui.windowId, width: ui.width, height: ui.height, title: ui.title }).toEqual({
          text: input.text,
          keys: input.keys,
          windowId: input.window_id,
          width: input.width,
          height: input.height,
          title: input.title,
        });
        // A window action's window_id names the window acted on, not whose screenshot a point is in.
        const targets = { pane: { kind: 'pane', paneId: input.paneId }, window: { kind: 'window', windowId: input.window_id }, screen: { kind: 'screen', screen: input.screen }, region: { kind: 'region' } };
        const target = WINDOW.has(input.action) || input.target === undefined ? undefined : targets[input.target];
        expect(ui.target).toEqual(target);
      }),
      { numRuns: 300 },
    );
  });

  it('each action refuses an input without a field it needs, naming the field', () => {
    fc.assert(
      fc.property(fullInput, fc.nat(), (input, pick) => {
        const required = REQUIRED[input.action];
        fc.pre(required.length > 0);
        const missing = required[pick % required.length]!;
        const { [missing as keyof typeof input]: _left, ...without } = input;
        const refusal = refusalOf(uiActionTool, { ...without, target: undefined });
        expect(refusal).toMatch(/^Not done: the tool input was invalid \(/);
        expect(refusal).toContain(`"${missing}"`);
      }),
      { numRuns: 300 },
    );
  });

  it('the least each action needs is enough', () => {
    const least: Record<string, unknown> = { x: 10, y: 20, to_x: 30, to_y: 40, scroll_direction: 'down', text: '', keys: 'Return', window_id: '0x1', width: 5, height: 6, title: 'T' };
    for (const action of ACTIONS) {
      const input = Object.fromEntries([['action', action], ...REQUIRED[action].map((field) => [field, least[field]])]);
      const result = proposed(uiActionTool, input);
      expect(result.ok, `${action}: ${result.ok ? '' : result.refusal}`).toBe(true);
    }
  });

  it.each([
    [{ action: 'click', x: 1.5, y: 2 }, 'x'],
    [{ action: 'click', x: -2, y: 2 }, 'x'],
    [{ action: 'teleport', x: 1, y: 2 }, 'action'],
    [{ action: 'scroll', x: 1, y: 2, scroll_direction: 'sideways' }, 'scroll_direction'],
    [{ action: 'scroll', x: 1, y: 2, scroll_direction: 'down', scroll_amount: 0 }, 'scroll_amount'],
    [{ action: 'key', keys: '   ' }, 'keys'],
    [{ action: 'type', text: 'x'.repeat(10_001) }, 'text'],
    [{ action: 'click', x: 1, y: 2, target: 'window' }, 'window_id'],
    [{ action: 'resize_window', window_id: '0x1', width: 0, height: 10 }, 'width'],
    ['click', 'expected object'],
  ])('refuses %j, saying what is wrong', (input, named) => {
    expect(refusalOf(uiActionTool, input)).toContain(named);
  });

  it('the step line says which tool asked for what; long text is cut on the card line only', () => {
    expect(proposed(uiActionTool, { action: 'click', x: 412, y: 300, purpose: 'retry' })).toEqual({
      ok: true,
      step: { command: 'ui_action click 412,300', purpose: 'retry', ui: expect.objectContaining({ action: 'click' }) },
    });
    const long = 'a'.repeat(100);
    const typed = proposed(uiActionTool, { action: 'type', text: long });
    expect(typed.ok && typed.step.command).toBe(`ui_action type "${'a'.repeat(57)}…"`);
    expect(typed.ok && typed.step.ui?.text).toBe(long);
    expect(proposed(uiActionTool, { action: 'drag', x: 1, y: 2, to_x: 3, to_y: 4 })).toMatchObject({ step: { command: 'ui_action drag 1,2 → 3,4' } });
    expect(proposed(uiActionTool, { action: 'scroll', x: 1, y: 2, scroll_direction: 'left', scroll_amount: 2 })).toMatchObject({ step: { command: 'ui_action scroll 1,2 2 left' } });
    expect(proposed(uiActionTool, { action: 'close_window', window_id: '0x2a00007' })).toMatchObject({ step: { command: 'ui_action close_window 0x2a00007' } });
    expect(proposed(uiActionTool, { action: 'resize_window', window_id: '0x2', width: 640, height: 480 })).toMatchObject({ step: { command: 'ui_action resize_window 0x2 to 640×480' } });
  });

  it('the definition offers every action it accepts, and requires only the action', () => {
    const { input_schema: schema } = uiActionTool.definition;
    const properties = schema.properties as Record<string, { enum?: string[] }>;
    expect(properties.action?.enum).toEqual([...ACTIONS]);
    expect(schema.required).toEqual(['action']);
    for (const fields of Object.values(REQUIRED)) for (const field of fields) expect(Object.keys(properties)).toContain(field);
  });
});

describe('the computer-use tool (computer_20250124)', () => {
  it('screenshot is a look at the screen (a read step), not a UI action', () => {
    expect(proposed(computerTool, { action: 'screenshot' })).toEqual({
      ok: true,
      step: { command: 'screenshot screen', purpose: '', vision: { look: 'screenshot', target: { kind: 'screen' } } },
    });
  });

  it.each([
    ['left_click', 'click'],
    ['right_click', 'right_click'],
    ['middle_click', 'middle_click'],
    ['double_click', 'double_click'],
    ['triple_click', 'triple_click'],
    ['mouse_move', 'move'],
  ] as [string, UiActionName][])('%s at a coordinate is the generic %s there, in the display\'s pixels', (action, generic) => {
    expect(uiOf(computerTool, { action, coordinate: [640, 360] })).toEqual({ via: 'computer', action: generic, at: { x: 640, y: 360 } });
    expect(proposed(computerTool, { action, coordinate: [640, 360] })).toMatchObject({ step: { command: `computer ${generic} 640,360` } });
  });

  it('left_click_drag goes from start_coordinate to coordinate', () => {
    expect(uiOf(computerTool, { action: 'left_click_drag', start_coordinate: [1, 2], coordinate: [3, 4] })).toEqual({ via: 'computer', action: 'drag', at: { x: 1, y: 2 }, to: { x: 3, y: 4 } });
  });

  it('scroll: direction and amount (default 3) become wheel notches, positive down and right', () => {
    fc.assert(
      fc.property(fc.constantFrom('up', 'down', 'left', 'right'), fc.option(fc.integer({ min: 0, max: 50 }), { nil: undefined }), (direction, amount) => {
        const ui = uiOf(computerTool, { action: 'scroll', coordinate: [5, 6], scroll_direction: direction, scroll_amount: amount });
        const notches = (amount ?? 3) * (direction === 'up' || direction === 'left' ? -1 : 1);
        const vertical = direction === 'up' || direction === 'down';
        expect(ui).toEqual({ via: 'computer', action: 'scroll', at: { x: 5, y: 6 }, scroll: { down: vertical ? notches : 0, right: vertical ? 0 : notches } });
      }),
    );
  });

  it('type, key, wait and cursor_position', () => {
    expect(uiOf(computerTool, { action: 'type', text: 'hello' })).toEqual({ via: 'computer', action: 'type', text: 'hello' });
    expect(uiOf(computerTool, { action: 'key', text: 'ctrl+s' })).toEqual({ via: 'computer', action: 'key', keys: 'ctrl+s' });
    expect(uiOf(computerTool, { action: 'wait', duration: 2.5 })).toEqual({ via: 'computer', action: 'wait', seconds: 2.5 });
    expect(uiOf(computerTool, { action: 'wait' })).toEqual({ via: 'computer', action: 'wait', seconds: 1 });
    expect(uiOf(computerTool, { action: 'cursor_position' })).toEqual({ via: 'computer', action: 'cursor_position' });
  });

  it.each([
    [{ action: 'left_click' }, 'left_click needs "coordinate"'],
    [{ action: 'left_click', coordinate: [1, 2], text: 'shift' }, 'with keys held is not supported'],
    [{ action: 'scroll', coordinate: [1, 2], scroll_direction: 'down', text: 'ctrl' }, 'with keys held is not supported'],
    [{ action: 'left_click_drag', coordinate: [1, 2] }, 'start_coordinate'],
    [{ action: 'scroll', coordinate: [1, 2] }, 'scroll_direction'],
    [{ action: 'type' }, 'type needs "text"'],
    [{ action: 'key', text: '' }, 'key needs "text"'],
    [{ action: 'left_mouse_down' }, 'Tandem does not do left_mouse_down; use left_click_drag'],
    [{ action: 'left_mouse_up', coordinate: [1, 1] }, 'use left_click_drag'],
    [{ action: 'hold_key', text: 'shift', duration: 1 }, 'Tandem does not do hold_key; use key with a chord'],
    [{ action: 'zoom', region: [0, 0, 10, 10] }, '"zoom" is not an action of the computer tool'],
    [{ action: 'left_click', coordinate: [1] }, 'coordinate'],
    [{ action: 'left_click', coordinate: [1.5, 2] }, 'coordinate'],
    [{ action: 'wait', duration: 601 }, 'duration'],
    [{}, 'action'],
  ])('refuses %j with a reason', (input, reason) => {
    const refusal = refusalOf(computerTool, input);
    expect(refusal).toMatch(/^Not done: /);
    expect(refusal).toContain(reason);
  });

  it('is offered as Anthropic\'s own tool with the display it was given', () => {
    expect(computerTool.definitionFor({ width: 1280, height: 720 })).toEqual({ type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 720 });
  });
});

describe('any input at all', () => {
  const anyAction = fc.oneof(fc.constantFrom(...ACTIONS, 'screenshot', 'left_click', 'left_click_drag', 'scroll', 'type', 'key', 'wait', 'cursor_position', 'hold_key'), fc.string());
  /** Mostly well-formed values (so that inputs get past the schema), sometimes anything. */
  const mostly = <T,>(valid: fc.Arbitrary<T>) => fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: fc.anything(), weight: 1 });
  const anyInput = fc.oneof(
    { arbitrary: fc.anything(), weight: 1 },
    {
      arbitrary: fc.record(
        {
          action: anyAction,
          x: mostly(pixel),
          y: mostly(pixel),
          to_x: mostly(pixel),
          to_y: mostly(pixel),
          coordinate: mostly(fc.tuple(pixel, pixel)),
          start_coordinate: mostly(fc.tuple(pixel, pixel)),
          text: mostly(fc.string({ maxLength: 20 })),
          keys: mostly(fc.stringMatching(/^[a-z+]{1,10}$/)),
          window_id: mostly(fc.stringMatching(/^0x[0-9a-f]{1,8}$/)),
          title: mostly(fc.string({ maxLength: 10 })),
          width: mostly(fc.integer({ min: 1, max: 5000 })),
          height: mostly(fc.integer({ min: 1, max: 5000 })),
          target: mostly(fc.constantFrom('pane', 'window', 'screen', 'region')),
          scroll_direction: mostly(fc.constantFrom('up', 'down', 'left', 'right')),
          scroll_amount: mostly(fc.integer({ min: 0, max: 50 })),
          duration: mostly(fc.double({ min: 0, max: 600, noNaN: true })),
        },
        { requiredKeys: ['action'] },
      ),
      weight: 5,
    },
  );

  it('is a step or a refusal the model can read, never an exception', () => {
    let steps = 0;
    fc.assert(
      fc.property(anyInput, (input) => {
        for (const tool of [uiActionTool, computerTool]) {
          const result = proposed(tool, input);
          if (result.ok) expect(result.step.ui ?? result.step.vision).toBeDefined();
          else expect(result.refusal).toMatch(/^Not done: /);
          if (result.ok) steps++;
        }
      }),
      { numRuns: 500 },
    );
    // Many of the inputs got past the schemas, to the mapping itself.
    expect(steps).toBeGreaterThan(10);
  });
});

describe('which models use the computer tool', () => {
  it.each([
    ['claude-3-7-sonnet-20250219', true],
    ['claude-3-7-sonnet-latest', true],
    ['claude-sonnet-4-20250514', true],
    ['claude-sonnet-4-5', true],
    ['claude-opus-4-1', true],
    ['claude-opus-4-20250514', true],
    ['claude-haiku-4-5', true],
    ['claude-sonnet-5-5', true],
    ['claude-opus-5-5', true],
    ['claude-haiku-5-5', true],
    ['claude-3-5-sonnet-20241022', false],
    ['claude-3-5-haiku-latest', false],
    ['claude-3-haiku-20240307', false],
    ['gpt-4o', false],
    ['llama3.1', false],
    ['my-claude-sonnet-4', false],
  ])('%s: %s', (model, expected) => {
    expect(supportsComputerUse(model)).toBe(expected);
  });
});
