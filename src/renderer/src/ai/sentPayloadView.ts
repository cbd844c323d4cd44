/**
 * "What was sent", readable: the request body (Anthropic Messages or OpenAI chat completions)
 * as the system prompt, then each message with its parts — text as text, tool calls and
 * results named — and the tools offered. The raw JSON stays one click away in the dialog.
 */

export interface SentPart {
  kind: 'text' | 'tool-call' | 'tool-result';
  /** "run_command (toolu_1)", "result of toolu_1 (error)". */
  label?: string;
  text: string;
  /** Images of this part (a screenshot's), as data: URLs exactly as sent. */
  images?: string[];
}

export interface SentMessage {
  role: string;
  parts: SentPart[];
}

export interface SentRequestView {
  model?: string;
  system: string;
  messages: SentMessage[];
  tools: string[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** undefined when the payload is not a request body this view knows (the raw JSON is shown then). */
export function readSentPayload(payload: string): SentRequestView | undefined {
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (!isObject(body) || !Array.isArray(body.messages)) return undefined;
  const systemParts: string[] = [];
  if (body.system !== undefined) systemParts.push(systemText(body.system));
  const messages: SentMessage[] = [];
  for (const message of body.messages) {
    if (!isObject(message)) continue;
    const role = String(message.role ?? '?');
    // OpenAI puts the system prompt first among the messages.
    if (role === 'system') {
      systemParts.push(text(message.content));
      continue;
    }
    messages.push({ role, parts: partsOf(message) });
  }
  const tools = Array.isArray(body.tools) ? body.tools.map(toolName).filter((name): name is string => name !== undefined) : [];
  return { model: typeof body.model === 'string' ? body.model : undefined, system: systemParts.join('\n\n'), messages, tools };
}

function systemText(system: unknown): string {
  if (Array.isArray(system)) return system.map((block) => (isObject(block) ? text(block.text) : text(block))).join('\n\n');
  return text(system);
}

function partsOf(message: Json): SentPart[] {
  const parts: SentPart[] = [];
  const content = message.content;
  if (typeof content === 'string') parts.push({ kind: 'text', text: content });
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (!isObject(part)) continue;
      if (part.type === 'text') parts.push({ kind: 'text', text: text(part.text) });
      else if (part.type === 'tool_use') parts.push({ kind: 'tool-call', label: `${text(part.name)} (${text(part.id)})`, text: text(part.input) });
      else if (part.type === 'tool_result') {
        const images = imagesOf(part.content);
        parts.push({
          kind: 'tool-result',
          label: `result of ${text(part.tool_use_id)}${part.is_error ? ' (error)' : ''}`,
          text: resultText(part.content),
          ...(images.length > 0 ? { images } : {}),
        });
      } else if (part.type === 'image_url' && isObject(part.image_url) && typeof part.image_url.url === 'string') {
        parts.push({ kind: 'text', label: 'image', text: '', images: [part.image_url.url] });
      } else parts.push({ kind: 'text', label: text(part.type), text: text(part) });
    }
  }
  // OpenAI: tool calls of an assistant message, and a tool message's result.
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (!isObject(call) || !isObject(call.function)) continue;
      parts.push({ kind: 'tool-call', label: `${text(call.function.name)} (${text(call.id)})`, text: argumentsText(call.function.arguments) });
    }
  }
  if (message.role === 'tool' && parts.length > 0) {
    parts[0] = { kind: 'tool-result', label: `result of ${text(message.tool_call_id)}`, text: parts[0]!.text };
  }
  return parts;
}

function resultText(content: unknown): string {
  if (!Array.isArray(content)) return text(content);
  return content
    .filter((block) => !isImage(block))
    .map((block) => (isObject(block) && block.type === 'text' ? text(block.text) : text(block)))
    .join('\n');
}

/** Anthropic image blocks in a tool result, as data: URLs. */
function imagesOf(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content.filter(isImage).map((block) => `data:${block.source.media_type};base64,${block.source.data}`);
}

function isImage(block: unknown): block is { source: { media_type: string; data: string } } {
  return isObject(block) && block.type === 'image' && isObject(block.source) && typeof block.source.data === 'string' && typeof block.source.media_type === 'string';
}

function argumentsText(args: unknown): string {
  if (typeof args !== 'string') return text(args);
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

function toolName(tool: unknown): string | undefined {
  if (!isObject(tool)) return undefined;
  if (typeof tool.name === 'string') return tool.name;
  return isObject(tool.function) && typeof tool.function.name === 'string' ? tool.function.name : undefined;
}
