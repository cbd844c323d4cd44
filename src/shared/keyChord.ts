const MODIFIERS = new Set(['ctrl', 'control', 'alt', 'option', 'shift', 'cmd', 'meta', 'command']);
const COMMAND_MODIFIERS = new Set(['ctrl', 'control', 'alt', 'option', 'cmd', 'meta', 'command']);
const NAMED_KEYS = /^(F([1-9]|1[0-9]|2[0-4])|Space|Enter|Tab|Backspace|Delete|Insert|Home|End|PageUp|PageDown|ArrowUp|ArrowDown|ArrowLeft|ArrowRight)$/i;

/**
 * Why a key chord from config.toml (`Ctrl+Shift+R`, `Alt+H`, `Cmd+Shift+H`) cannot be a
 * shortcut, or undefined when it can. It needs Ctrl, Alt or Cmd, so it never takes a key you
 * type, and it is never plain Ctrl+R, the shell's own history search.
 */
export function keyChordProblem(chord: string): string | undefined {
  const parts = chord.split('+').map((part) => part.trim());
  const key = parts.pop() ?? '';
  if (!key) return `${chord} names no key`;
  if (!(key.length === 1 && /[\x21-\x7e]/.test(key)) && !NAMED_KEYS.test(key)) return `${key} is not a key name (a letter, a digit, a symbol, F1–F24, Space, Enter, Tab, Delete, Home, End, PageUp, PageDown or an arrow)`;
  const modifiers = parts.map((part) => part.toLowerCase());
  const unknown = parts.find((part) => !MODIFIERS.has(part.toLowerCase()));
  if (unknown !== undefined) return `${unknown || '(empty)'} is not a modifier (Ctrl, Alt, Shift or Cmd)`;
  if (!modifiers.some((modifier) => COMMAND_MODIFIERS.has(modifier))) return 'a shortcut needs Ctrl, Alt or Cmd, or it would take a key you type';
  const ctrlOnly = modifiers.length > 0 && modifiers.every((modifier) => modifier === 'ctrl' || modifier === 'control');
  if (ctrlOnly && key.toLowerCase() === 'r') return "Ctrl+R is the shell's own history search; Tandem never takes it";
  return undefined;
}
