import type OpenAI from 'openai';
import {
  MAX_LISTED_MODELS,
  MODEL_LIST_TIMEOUT_MS,
  type AgentContent,
  type AgentMessage,
  type ModelBackend,
  type ModelRequest,
  type ModelResult,
  type StreamHandlers,
  resultText,
} from './modelBackend';
import { ModelError, errorForStatus, networkError, retryAfterMs } from './modelError';

export interface OpenAiCompatibleOptions {
  /** Local servers (Ollama, LM Studio) need none. */
  apiKey?: string;
  /** e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1 */
  baseURL: string;
  keySource: string;
}

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/**
 * Chat Completions streaming with function calling, for OpenAI and the many servers that
 * copy its API. Converts the neutral content blocks at this edge.
 */
export class OpenAiCompatibleBackend implements ModelBackend {
  readonly kind = 'openai-compatible' as const;
  private client: OpenAI | undefined;

  constructor(private readonly options: OpenAiCompatibleOptions) {}

  /** The SDK is loaded on first use: an Anthropic user (and `tandem agent`'s start) never pays for it. */
  private async sdk(): Promise<OpenAI> {
    if (this.client) return this.client;
    const OpenAISdk = await loadOpenAi();
    this.client = new OpenAISdk({
      apiKey: this.options.apiKey || 'not-needed',
      baseURL: this.options.baseURL,
      maxRetries: 0,
      timeout: 10 * 60_000,
    });
    return this.client;
  }

  async listModels(signal: AbortSignal): Promise<string[]> {
    const ids: string[] = [];
    const client = await this.sdk();
    for await (const model of client.models.list({ signal, timeout: MODEL_LIST_TIMEOUT_MS })) {
      ids.push(model.id);
      if (ids.length >= MAX_LISTED_MODELS) break;
    }
    return ids;
  }

  async stream(request: ModelRequest, handlers: StreamHandlers, signal: AbortSignal): Promise<ModelResult> {
    let received = false;
    const text: string[] = [];
    const calls = new Map<number, { id: string; name: string; args: string }>();
    let finish = 'stop';
    const usage = { inputTokens: 0, outputTokens: 0 };
    try {
      const body = {
        model: request.model,
        max_tokens: request.maxTokens,
        messages: toChatMessages(request.system, request.messages),
        // OpenAI refuses an empty tool list; a request without tools (a summary) sends none.
        ...(request.tools.length > 0 && {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            function: { name: tool.name, description: tool.description, parameters: tool.input_schema },
          })),
        }),
        stream: true as const,
        stream_options: { include_usage: true },
      };
      handlers.sent?.(body);
      const stream = await (await this.sdk()).chat.completions.create(body, { signal });
      for await (const chunk of stream) {
        if (chunk.usage) {
          usage.inputTokens = chunk.usage.prompt_tokens;
          usage.outputTokens = chunk.usage.completion_tokens;
        }
        const choice = chunk.choices[0];
        if (!choice) continue;
        const delta = choice.delta;
        if (delta?.content) {
          received = true;
          text.push(delta.content);
          handlers.text(delta.content);
        }
        for (const call of delta?.tool_calls ?? []) {
          received = true;
          const entry = calls.get(call.index) ?? { id: '', name: '', args: '' };
          if (call.id) entry.id = call.id;
          if (call.function?.name) entry.name += call.function.name;
          if (call.function?.arguments) entry.args += call.function.arguments;
          calls.set(call.index, entry);
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
    } catch (error) {
      if (signal.aborted) throw new ModelError('cancelled', 'Cancelled.', { partial: received });
      throw this.translate(error, request.model, received);
    }
    const content: AgentContent[] = [];
    if (text.length > 0) content.push({ type: 'text', text: text.join('') });
    for (const [index, call] of [...calls.entries()].sort(([a], [b]) => a - b)) {
      const id = call.id || `call_${index}`;
      const input = parseArguments(call.args);
      handlers.toolUse({ id, name: call.name, input });
      content.push({ type: 'tool_use', id, name: call.name, input });
    }
    return { content, stopReason: calls.size > 0 || finish === 'tool_calls' ? 'tool_use' : finish === 'length' ? 'max_tokens' : 'end_turn', usage };
  }

  private translate(error: unknown, model: string, partial: boolean): ModelError {
    // Errors of the SDK's own come only once it is loaded.
    const OpenAI = loadedOpenAi;
    if (!OpenAI) return networkError(this.options.baseURL, error, partial);
    if (error instanceof OpenAI.APIConnectionTimeoutError) {
      return new ModelError('timeout', `${this.options.baseURL} did not answer in time.`, { partial });
    }
    if (error instanceof OpenAI.APIConnectionError) return networkError(this.options.baseURL, error.cause ?? error, partial);
    if (error instanceof OpenAI.APIError && error.status !== undefined) {
      return errorForStatus(error.status, error.message, {
        endpoint: this.options.baseURL,
        model,
        keySource: this.options.keySource,
        retryAfterMs: retryAfterMs(error.headers),
      });
    }
    return networkError(this.options.baseURL, error, true);
  }
}

/** Arguments are JSON text; a model that sends broken JSON gets its call answered with an error later. */
function parseArguments(args: string): unknown {
  if (args.trim() === '') return {};
  try {
    return JSON.parse(args);
  } catch {
    return { __invalidJson: args };
  }
}

/** The neutral history as Chat Completions messages. */
export function toChatMessages(system: string, messages: AgentMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: system }];
  for (const message of messages) {
    if (message.role === 'assistant') {
      const textParts = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
      const toolCalls = message.content.flatMap((part) =>
        part.type === 'tool_use'
          ? [{ id: part.id, type: 'function' as const, function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) } }]
          : [],
      );
      out.push({ role: 'assistant', content: textParts.join('') || null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) });
      continue;
    }
    // Tool results become `tool` messages right after the assistant turn (text only: the
    // protocol has no images there); their images and the user's text follow as a user message.
    const images: OpenAI.Chat.Completions.ChatCompletionContentPart[] = [];
    for (const part of message.content) {
      if (part.type !== 'tool_result') continue;
      out.push({ role: 'tool', tool_call_id: part.tool_use_id, content: resultText(part.content) });
      if (typeof part.content === 'string') continue;
      for (const inner of part.content) {
        if (inner.type !== 'image') continue;
        images.push({ type: 'text', text: `[The image of tool call ${part.tool_use_id}:]` });
        images.push({ type: 'image_url', image_url: { url: `data:${inner.source.media_type};base64,${inner.source.data}` } });
      }
    }
    const userText = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n\n');
    if (images.length > 0) out.push({ role: 'user', content: userText ? [...images, { type: 'text', text: userText }] : images });
    else if (userText) out.push({ role: 'user', content: userText });
  }
  return out;
}

let loadedOpenAi: typeof OpenAI | undefined;

async function loadOpenAi(): Promise<typeof OpenAI> {
  loadedOpenAi ??= (await import('openai')).default;
  return loadedOpenAi;
}
