import { estimateTokens } from '../../context/tokenEstimate';
import { resultText, type AgentContent, type AgentMessage } from '../backends/modelBackend';

/** A user's message, a note or attachment with it, an answer, a tool call's input and a result's digest are cut to these many characters. */
const USER_CHARS = 300;
const NOTE_CHARS = 200;
const ANSWER_CHARS = 300;
const INPUT_CHARS = 160;
const DIGEST_CHARS = 160;
/** Room kept for "(The first 12 turns are left out of this summary.)". */
const OMITTED_LINE_TOKENS = 16;

type ToolUse = Extract<AgentContent, { type: 'tool_use' }>;
type ToolResult = Extract<AgentContent, { type: 'tool_result' }>;

/**
 * Tandem's own summary of the older part of a conversation, written from the messages (no
 * model call): turn by turn, what the user asked, each tool call with the digest of its result
 * (a command's exit code and the block that holds its output), and what the model answered.
 * Within `maxTokens`: the oldest turns go first, and the summary says how many.
 */
export function compactionSummary(messages: readonly AgentMessage[], maxTokens: number): string {
  const results = new Map<string, ToolResult>();
  for (const message of messages) for (const part of message.content) if (part.type === 'tool_result') results.set(part.tool_use_id, part);
  const turns = splitTurns(messages).map((turn, index) => turnLines(turn, index + 1, results).join('\n'));
  const head =
    `[Earlier in this conversation, compacted by Tandem to save context: ${turns.length} ${turns.length === 1 ? 'turn' : 'turns'} in brief. ` +
    'Tool results are cut to a line; fetch what you need again (terminal_history by block id, read_file).]';
  // The newest turns that fit, counted from the end (the line saying how many are left out included).
  let used = estimateTokens(head) + OMITTED_LINE_TOKENS;
  let kept = 0;
  while (kept < turns.length) {
    used += estimateTokens(turns[turns.length - 1 - kept]!) + 1;
    if (used > maxTokens && kept > 0) break;
    kept++;
  }
  const left = turns.length - kept;
  const body = turns.slice(left);
  const omitted = left > 0 ? [`(The first ${left} ${left === 1 ? 'turn is' : 'turns are'} left out of this summary.)`] : [];
  return [head, ...omitted, ...body].join('\n');
}

/** A turn begins with a message of the user's that has text (not only tool results). */
export function startsTurn(message: AgentMessage): boolean {
  return message.role === 'user' && message.content.some((part) => part.type === 'text');
}

function splitTurns(messages: readonly AgentMessage[]): AgentMessage[][] {
  const turns: AgentMessage[][] = [];
  for (const message of messages) {
    if (startsTurn(message) || turns.length === 0) turns.push([]);
    turns.at(-1)!.push(message);
  }
  return turns;
}

function turnLines(turn: AgentMessage[], number: number, results: Map<string, ToolResult>): string[] {
  const lines = [`Turn ${number}:`];
  for (const message of turn) {
    if (message.role === 'user') {
      const texts = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
      if (texts.length === 0) continue;
      // The user's own words come last; attachments and Tandem's notes (how an auto run ended) before them.
      for (const text of texts.slice(0, -1)) lines.push(`- With it: "${clip(text, NOTE_CHARS)}"`);
      lines.push(`- The user: "${clip(texts.at(-1)!, USER_CHARS)}"`);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'tool_use') lines.push(`- You called ${part.name} ${describeInput(part)} → ${digest(results.get(part.id))}`);
      else if (part.type === 'text' && part.text.trim()) lines.push(`- You answered: "${clip(part.text, ANSWER_CHARS)}"`);
    }
  }
  return lines;
}

/** A call's input in brief: a command, a path, or its JSON. */
function describeInput(call: ToolUse): string {
  const input = (call.input ?? {}) as Record<string, unknown>;
  if (typeof input.command === 'string') return `\`${clip(input.command, INPUT_CHARS)}\``;
  if (typeof input.path === 'string') return clip(input.path, INPUT_CHARS);
  return clip(JSON.stringify(call.input ?? {}), INPUT_CHARS);
}

/** A result in one line: a command's exit code and block, else its first line. */
function digest(result: ToolResult | undefined): string {
  if (!result) return 'no result';
  const text = resultText(result.content);
  const exit = /^Exit code: (.+?)(?: ·|$)/m.exec(text)?.[1];
  const block = /<output block="([^"]+)">/.exec(text)?.[1];
  const error = result.is_error ? 'error: ' : '';
  if (exit !== undefined) return `${error}exit ${exit}${block ? `, output in block ${block}` : ''}`;
  const first = text.split('\n').find((line) => line.trim() !== '') ?? '(empty)';
  return `${error}${clip(first, DIGEST_CHARS)}`;
}

function clip(text: string, chars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= chars ? flat : `${flat.slice(0, chars - 1)}…`;
}
