import { estimateTokens } from '../../context/tokenEstimate';
import { scrubSecrets } from '../../safety/secretScrubber';
import type { AgentContent, AgentMessage, ToolResultContent } from '../backends/modelBackend';
import { imageTokens, messageImages } from '../vision/imageTokens';

/** How a partial answer that broke off ends in the history the model is sent. */
export const BROKE_OFF_MARK = '[The answer broke off here.]';

/**
 * Appends a message, merging it into the previous one when both have the same role. Content
 * is scrubbed of secrets here: besides the system prompt (built from scrubbed parts) the
 * history is all a request carries, so nothing enters it unscrubbed — the model's own answers
 * and tool calls included. Content scrubbed earlier (block results, file reads) comes through
 * a second pass unchanged.
 */
export function appendMessage(history: AgentMessage[], role: AgentMessage['role'], content: AgentContent[]): void {
  if (content.length === 0) return;
  const scrubbed = content.map(scrubContent);
  const last = history[history.length - 1];
  if (last && last.role === role) last.content.push(...scrubbed);
  else history.push({ role, content: scrubbed });
}

function scrubContent(part: AgentContent): AgentContent {
  switch (part.type) {
    case 'text':
      return { ...part, text: scrubSecrets(part.text).text };
    case 'tool_result':
      return { ...part, content: scrubResult(part.content) };
    case 'tool_use':
      return { ...part, input: scrubStrings(part.input) };
  }
}

/** Text is scrubbed; images go as they were shown to the user (black bars over excluded windows included). */
function scrubResult(content: ToolResultContent): ToolResultContent {
  if (typeof content === 'string') return scrubSecrets(content).text;
  return content.map((part) => (part.type === 'text' ? { ...part, text: scrubSecrets(part.text).text } : part));
}

function scrubStrings(value: unknown): unknown {
  if (typeof value === 'string') return scrubSecrets(value).text;
  if (Array.isArray(value)) return value.map(scrubStrings);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrubStrings(inner)]));
  return value;
}

/** Text by its characters; an image by its size (vision/imageTokens.ts), never by its base64. */
export function estimateMessagesTokens(messages: AgentMessage[]): number {
  const text = messages.reduce((sum, message) => sum + estimateTokens(JSON.stringify(message.content, withoutImageData)), 0);
  return text + messageImages(messages).reduce((sum, image) => sum + imageTokens(image), 0);
}

function withoutImageData(this: unknown, key: string, value: unknown): unknown {
  const inImage = key === 'data' && (this as { type?: unknown }).type === 'base64';
  return inImage ? '' : value;
}

/**
 * The part of the history that fits `budgetTokens`. Whole exchanges are dropped from the
 * front — a cut is only made before a user message that is not a tool result, so every
 * tool call keeps its result — and a note says how much was left out. The newest exchange
 * is always kept.
 */
export function fitHistory(history: AgentMessage[], budgetTokens: number): { messages: AgentMessage[]; dropped: number } {
  const cuts: number[] = [];
  history.forEach((message, index) => {
    if (message.role === 'user' && !message.content.some((part) => part.type === 'tool_result')) cuts.push(index);
  });
  let cut = 0;
  let total = estimateMessagesTokens(history);
  if (total > budgetTokens) {
    const sizes = history.map((message) => estimateMessagesTokens([message]));
    let dropIndex = 0;
    for (const candidate of cuts) {
      while (dropIndex < candidate) total -= sizes[dropIndex++]!;
      cut = candidate;
      if (total <= budgetTokens) break;
    }
  }
  if (cut === 0) return { messages: history, dropped: 0 };
  const kept = history.slice(cut).map((message) => ({ ...message, content: [...message.content] }));
  kept[0]!.content.unshift({ type: 'text', text: `[${cut} earlier messages of this conversation were left out to fit the context budget.]` });
  return { messages: kept, dropped: cut };
}
