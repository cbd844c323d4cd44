import { isMac } from '../platform/platform';

const MODIFIER_ORDER = ['Ctrl', 'Alt', 'Shift', 'Cmd'] as const;
type Modifier = (typeof MODIFIER_ORDER)[number];

/** Keys named by physical position when the character is not useful (shifted symbols). */
const KEY_BY_CODE: Record<string, string> = {
  Equal: '=',
  NumpadAdd: '=',
  Minus: '-',
  NumpadSubtract: '-',
  Digit0: '0',
  Numpad0: '0',
  Comma: ',',
  BracketLeft: '[',
  BracketRight: ']',
  Space: 'Space',
};

/** 'cmd+shift+p' → 'Shift+Cmd+P': one spelling per chord, whatever order it was written in. */
export function normalizeChord(chord: string): string {
  const parts = chord.split('+');
  // 'Ctrl++' ends with an empty part for the plus key.
  let key = parts.pop() ?? '';
  if (key === '' && parts[parts.length - 1] === '') {
    parts.pop();
    key = '=';
  }
  const modifiers = new Set(parts.map((part) => canonicalModifier(part)).filter((part): part is Modifier => !!part));
  return [...MODIFIER_ORDER.filter((modifier) => modifiers.has(modifier)), canonicalKey(key)].join('+');
}

function canonicalModifier(name: string): Modifier | undefined {
  const lower = name.toLowerCase();
  if (lower === 'ctrl' || lower === 'control') return 'Ctrl';
  if (lower === 'alt' || lower === 'option') return 'Alt';
  if (lower === 'shift') return 'Shift';
  if (lower === 'cmd' || lower === 'meta' || lower === 'command') return 'Cmd';
  return undefined;
}

function canonicalKey(key: string): string {
  return key.length === 1 ? key.toUpperCase() : key;
}

export function chordFromEvent(event: KeyboardEvent): string | undefined {
  const key = eventKey(event);
  if (!key || key === 'Control' || key === 'Shift' || key === 'Alt' || key === 'Meta') return undefined;
  const parts: string[] = [];
  if (event.ctrlKey) parts.push('Ctrl');
  if (event.altKey) parts.push('Alt');
  if (event.shiftKey) parts.push('Shift');
  if (event.metaKey) parts.push('Cmd');
  parts.push(key);
  return parts.join('+');
}

function eventKey(event: KeyboardEvent): string | undefined {
  const mapped = KEY_BY_CODE[event.code];
  if (mapped) return mapped;
  // Letters by character where it is a Latin letter, else by position (other layouts).
  if (/^[a-z]$/i.test(event.key)) return event.key.toUpperCase();
  if (/^Key[A-Z]$/.test(event.code)) return event.code.slice(3);
  if (/^Digit[0-9]$/.test(event.code)) return event.code.slice(5);
  if (event.key === '+') return '=';
  return event.key.length === 1 ? event.key.toUpperCase() : event.key;
}

const MAC_SYMBOLS: Record<string, string> = { Ctrl: '⌃', Alt: '⌥', Shift: '⇧', Cmd: '⌘' };
const KEY_LABELS: Record<string, string> = {
  ArrowUp: '↑',
  ArrowDown: '↓',
  ArrowLeft: '←',
  ArrowRight: '→',
  PageUp: 'PgUp',
  PageDown: 'PgDn',
  Space: 'Space',
  '=': '=',
};

/** How a chord is shown to the user: ⇧⌘P on macOS, Ctrl+Shift+P elsewhere. */
export function chordLabel(chord: string): string {
  const parts = chord.split('+');
  const key = parts.pop() ?? '';
  const keyLabel = KEY_LABELS[key] ?? key;
  if (isMac) return parts.map((part) => MAC_SYMBOLS[part] ?? part).join('') + keyLabel;
  return [...parts, keyLabel].join('+');
}
