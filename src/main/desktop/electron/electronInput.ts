import type { UiAction } from '../desktop';
import { DesktopError } from '../desktopError';
import type { Point } from '../geometry';
import { keySequence } from '../x11/xdotoolCommands';
import type { ElectronInputEvent, KeyModifier } from './electronSurface';

const WHEEL_NOTCH_PIXELS = 100;
const MODIFIERS: Record<string, KeyModifier> = { ctrl: 'control', shift: 'shift', alt: 'alt', super: 'meta' };
/** X keysyms (what keySequence yields) that Electron names differently. */
const KEY_CODES: Record<string, string> = {
  Return: 'Enter',
  BackSpace: 'Backspace',
  Prior: 'PageUp',
  Next: 'PageDown',
  space: 'Space',
};

/**
 * The sendInputEvent events for an action on Tandem's own window; points are the window's
 * content coordinates in DIPs. Window-management actions have no events here.
 */
export function inputEvents(action: UiAction): ElectronInputEvent[] {
  switch (action.kind) {
    case 'move':
      return [mouse('mouseMove', action.at)];
    case 'click': {
      const events: ElectronInputEvent[] = [mouse('mouseMove', action.at)];
      for (let count = 1; count <= action.count; count++) {
        events.push(mouse('mouseDown', action.at, action.button, count), mouse('mouseUp', action.at, action.button, count));
      }
      return events;
    }
    case 'drag':
      return [
        mouse('mouseMove', action.from),
        mouse('mouseDown', action.from, action.button, 1),
        mouse('mouseMove', { x: (action.from.x + action.to.x) / 2, y: (action.from.y + action.to.y) / 2 }, action.button),
        mouse('mouseMove', action.to, action.button),
        mouse('mouseUp', action.to, action.button, 1),
      ];
    case 'scroll':
      return [
        mouse('mouseMove', action.at),
        {
          type: 'mouseWheel',
          ...point(action.at),
          deltaX: -action.right * WHEEL_NOTCH_PIXELS,
          deltaY: -action.down * WHEEL_NOTCH_PIXELS,
          wheelTicksX: -action.right,
          wheelTicksY: -action.down,
        },
      ];
    case 'type':
      return [...action.text].flatMap((char): ElectronInputEvent[] =>
        char === '\n' ? keyPress('Enter', []) : [{ type: 'char', keyCode: char }],
      );
    case 'key':
      return keySequence(action.keys).flatMap((chord) => {
        const parts = chord.split('+');
        const key = parts.pop()!;
        const modifiers = parts.map((part) => {
          const modifier = MODIFIERS[part];
          if (!modifier) throw new DesktopError('invalid', `"${part}" in "${chord}" is not a modifier (ctrl, shift, alt, super)`);
          return modifier;
        });
        return keyPress(KEY_CODES[key] ?? (key.length === 1 ? key.toUpperCase() : key), modifiers);
      });
    default:
      throw new DesktopError('invalid', `${action.kind} is not an input action for Tandem's window`);
  }
}

function keyPress(keyCode: string, modifiers: KeyModifier[]): ElectronInputEvent[] {
  return [
    { type: 'keyDown', keyCode, modifiers },
    { type: 'keyUp', keyCode, modifiers },
  ];
}

function mouse(type: 'mouseMove' | 'mouseDown' | 'mouseUp', at: Point, button?: 'left' | 'middle' | 'right', clickCount?: number): ElectronInputEvent {
  return { type, ...point(at), ...(button ? { button } : {}), ...(clickCount ? { clickCount } : {}) };
}

function point(at: Point): { x: number; y: number } {
  return { x: Math.round(at.x), y: Math.round(at.y) };
}
