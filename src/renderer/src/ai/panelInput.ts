/** What a line typed into the AI input asks for. */
export type PanelInput =
  | { kind: 'empty' }
  | { kind: 'message'; text: string }
  /** `! cmd`: the user's own command, run in the active pane; its block joins the conversation. */
  | { kind: 'run'; command: string }
  /** A lone `!`: back to the terminal. */
  | { kind: 'focus-terminal' }
  /** `!auto <task>`: an auto run in the active pane (a bare `!auto` has no task yet). */
  | { kind: 'auto'; task: string };

/**
 * `!auto <task>` starts an auto run, `! cmd` runs a command (the space is optional), a lone
 * `!` goes to the terminal, anything else is a message. `\!` at the start sends a message
 * that begins with "!". `# text`, as at a pane's prompt (and as a transcript spoken at a
 * pane lands), is an instruction for the active pane: the message is the text after `# `.
 */
export function parsePanelInput(raw: string): PanelInput {
  const text = raw.trim();
  if (text === '') return { kind: 'empty' };
  if (text === '!') return { kind: 'focus-terminal' };
  if (text.startsWith('\\!')) return { kind: 'message', text: text.slice(1) };
  const instruction = /^#\s+(\S[\s\S]*)$/.exec(text);
  if (instruction) return { kind: 'message', text: instruction[1]! };
  const auto = /^!auto(?:\s+([\s\S]*))?$/.exec(text);
  if (auto) return { kind: 'auto', task: (auto[1] ?? '').trim() };
  if (text.startsWith('!')) {
    const command = text.slice(1).trim();
    return command === '' ? { kind: 'focus-terminal' } : { kind: 'run', command };
  }
  return { kind: 'message', text };
}
