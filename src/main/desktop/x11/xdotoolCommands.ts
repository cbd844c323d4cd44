import type { MouseButton, UiAction } from '../desktop';
import { DesktopError } from '../desktopError';
import type { Point } from '../geometry';

const BUTTONS: Record<MouseButton, string> = { left: '1', middle: '2', right: '3' };
const WHEEL = { up: '4', down: '5', left: '6', right: '7' };
const DOUBLE_CLICK_DELAY_MS = '80';
/** Between typed characters: fast, yet slow enough that terminals and toolkits keep up. */
const TYPING_DELAY_MS = '8';

/** The names models use for keys, to X keysyms (xdotool's syntax is the computer-use tool's). */
const KEY_ALIASES: Record<string, string> = {
  enter: 'Return',
  return: 'Return',
  esc: 'Escape',
  escape: 'Escape',
  backspace: 'BackSpace',
  del: 'Delete',
  delete: 'Delete',
  tab: 'Tab',
  space: 'space',
  pageup: 'Prior',
  pagedown: 'Next',
  arrowup: 'Up',
  arrowdown: 'Down',
  arrowleft: 'Left',
  arrowright: 'Right',
  control: 'ctrl',
  ctrl: 'ctrl',
  cmd: 'super',
  command: 'super',
  win: 'super',
  meta: 'super',
  super: 'super',
  option: 'alt',
  alt: 'alt',
  shift: 'shift',
};

/**
 * The xdotool arguments for an input action (window actions need to know about the window
 * manager and are built by the desktop). Text goes through stdin (`type --file -`), never
 * argv, so it can hold anything.
 */
export function pointerArguments(action: UiAction): string[] {
  switch (action.kind) {
    case 'move':
      return move(action.at);
    case 'click':
      return [...move(action.at), 'click', '--repeat', String(action.count), '--delay', DOUBLE_CLICK_DELAY_MS, BUTTONS[action.button]];
    case 'drag':
      return [
        ...move(action.from),
        'mousedown',
        BUTTONS[action.button],
        'sleep',
        '0.05',
        ...move(midpoint(action.from, action.to)),
        'sleep',
        '0.05',
        ...move(action.to),
        'sleep',
        '0.05',
        'mouseup',
        BUTTONS[action.button],
      ];
    case 'scroll':
      return [...move(action.at), ...wheel(action.down, WHEEL.down, WHEEL.up), ...wheel(action.right, WHEEL.right, WHEEL.left)];
    case 'type':
      return ['type', '--delay', TYPING_DELAY_MS, '--file', '-'];
    case 'key':
      return ['key', '--clearmodifiers', '--', ...keySequence(action.keys)];
    default:
      throw new Error(`${action.kind} is not a pointer or keyboard action`);
  }
}

/** "ctrl+Shift+T", "Enter", "ctrl+a Delete" → xdotool key sequences; anything else is refused. */
export function keySequence(keys: string): string[] {
  const chords = keys.trim().split(/\s+/).filter(Boolean);
  if (chords.length === 0) throw new DesktopError('invalid', 'no keys to press');
  return chords.map((chord) =>
    chord
      .split('+')
      .map((key) => {
        if (!/^[A-Za-z0-9_]+$/.test(key)) throw new DesktopError('invalid', `"${chord}" is not a key chord (e.g. ctrl+shift+t, Return, F5)`);
        return KEY_ALIASES[key.toLowerCase()] ?? key;
      })
      .join('+'),
  );
}

function move(point: Point): string[] {
  return ['mousemove', String(Math.round(point.x)), String(Math.round(point.y))];
}

function midpoint(a: Point, b: Point): Point {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

function wheel(notches: number, positive: string, negative: string): string[] {
  const count = Math.round(Math.abs(notches));
  if (count === 0) return [];
  return ['click', '--repeat', String(count), '--delay', '20', notches > 0 ? positive : negative];
}
