import Anthropic from '@anthropic-ai/sdk';
import type { BetaMessageStreamParams, BetaToolUnion } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import { COMPUTER_USE_BETA, MAX_LISTED_MODELS, MODEL_LIST_TIMEOUT_MS, type AgentContent, type ComputerToolDefinition, type ModelBackend, type ModelRequest, type ModelResult, type StreamHandlers } from './modelBackend';
import { ModelError, errorForStatus, networkError, retryAfterMs } from './modelError';

/** A stream with no event for this long is treated as dead. */
const IDLE_TIMEOUT_MS = 90_000;

export interface AnthropicBackendOptions {
  apiKey: string;
  /** Empty: the SDK default (api.anthropic.com). */
  baseURL?: string;
  /** Where the key came from, for error messages ("ANTHROPIC_API_KEY", "the key in Settings → AI"). */
  keySource: string;
  idleTimeoutMs?: number;
}

/**
 * The Anthropic Messages API through the official SDK, streaming. Retries are the agent's
 * job (it shows a countdown the user can cancel), so the SDK's own retries are off.
 */
export class AnthropicBackend implements ModelBackend {
  readonly kind = 'anthropic' as const;
  private readonly client: Anthropic;
  private readonly endpoint: string;

  constructor(private readonly options: AnthropicBackendOptions) {
    this.client = new Anthropic({
      apiKey: options.apiKey,
      baseURL: options.baseURL || undefined,
      // Failures reach the user through the agent's messages, not the engine's console.
      logLevel: 'off',
      maxRetries: 0,
      timeout: 10 * 60_000,
    });
    this.endpoint = options.baseURL || 'https://api.anthropic.com';
  }

  async listModels(signal: AbortSignal): Promise<string[]> {
    const ids: string[] = [];
    for await (const model of this.client.models.list({ limit: 100 }, { signal, timeout: MODEL_LIST_TIMEOUT_MS })) {
      ids.push(model.id);
      if (ids.length >= MAX_LISTED_MODELS) break;
    }
    return ids;
  }

  async stream(request: ModelRequest, handlers: StreamHandlers, signal: AbortSignal): Promise<ModelResult> {
    const abort = new AbortController();
    const onOuterAbort = () => abort.abort();
    signal.addEventListener('abort', onOuterAbort);
    let received = false;
    let idleTimer: NodeJS.Timeout | undefined;
    let idle = false;
    const armIdle = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        idle = true;
        abort.abort();
      }, this.options.idleTimeoutMs ?? IDLE_TIMEOUT_MS);
    };
    try {
      armIdle();
      const body: Anthropic.MessageStreamParams = {
        model: request.model,
        max_tokens: request.maxTokens,
        system: request.system,
        messages: request.messages as Anthropic.MessageParam[],
        ...(request.tools.length > 0 && { tools: request.tools as Anthropic.Tool[] }),
      };
      const stream = request.computerTool ? this.computerUseStream(body, request.computerTool, handlers, abort.signal) : this.client.messages.stream(body, { signal: abort.signal });
      if (!request.computerTool) handlers.sent?.({ ...body, stream: true });
      stream.on('streamEvent', () => armIdle());
      stream.on('text', (delta) => {
        received = true;
        handlers.text(delta);
      });
      stream.on('contentBlock', (block) => {
        if (block.type === 'tool_use') {
          received = true;
          handlers.toolUse({ id: block.id, name: block.name, input: block.input });
        }
      });
      const message = await stream.finalMessage();
      const content: AgentContent[] = [];
      for (const block of message.content) {
        if (block.type === 'text') content.push({ type: 'text', text: block.text });
        else if (block.type === 'tool_use') content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
      }
      return {
        content,
        stopReason: message.stop_reason ?? 'end_turn',
        usage: { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens },
      };
    } catch (error) {
      if (signal.aborted) throw new ModelError('cancelled', 'Cancelled.', { partial: received });
      if (idle) {
        throw new ModelError('timeout', `${this.endpoint} stopped sending for ${Math.round((this.options.idleTimeoutMs ?? IDLE_TIMEOUT_MS) / 1000)} s.`, {
          partial: received,
        });
      }
      throw this.translate(error, request.model, received);
    } finally {
      clearTimeout(idleTimer);
      signal.removeEventListener('abort', onOuterAbort);
    }
  }

  /**
   * The computer-use tool is a beta: the request goes to the beta Messages endpoint with its
   * beta named. Its stream has the same events and final message (a superset of block
   * types, of which only text and tool_use are read), so it is handled as the plain one.
   */
  private computerUseStream(body: Anthropic.MessageStreamParams, computerTool: ComputerToolDefinition, handlers: StreamHandlers, signal: AbortSignal): MessageStream {
    const betaBody: BetaMessageStreamParams = {
      ...(body as BetaMessageStreamParams),
      tools: [...((body.tools ?? []) as BetaToolUnion[]), computerTool],
      betas: [COMPUTER_USE_BETA],
    };
    handlers.sent?.({ ...betaBody, stream: true });
    return this.client.beta.messages.stream(betaBody, { signal }) as unknown as MessageStream;
  }

  private translate(error: unknown, model: string, partial: boolean): ModelError {
    if (error instanceof ModelError) return error;
    if (error instanceof Anthropic.APIConnectionTimeoutError) {
      return new ModelError('timeout', `${this.endpoint} did not answer in time.`, { partial });
    }
    if (error instanceof Anthropic.APIConnectionError) return networkError(this.endpoint, error.cause ?? error, partial);
    if (error instanceof Anthropic.APIError) {
      const detail = apiErrorDetail(error);
      if (error.status === undefined) {
        // An `error` event inside a stream that had already started.
        const overloaded = detail.type === 'overloaded_error';
        return new ModelError(overloaded ? 'overloaded' : 'stream-broken', streamErrorMessage(detail, partial), { partial });
      }
      const mapped = errorForStatus(error.status, detail.message, {
        endpoint: this.endpoint,
        model,
        keySource: this.options.keySource,
        retryAfterMs: retryAfterMs(error.headers),
      });
      return mapped;
    }
    // Malformed SSE or a connection cut after the response began: the request was accepted,
    // so it is reported (and not silently retried, which could answer twice).
    return networkError(this.endpoint, error, true);
  }
}

function apiErrorDetail(error: InstanceType<typeof Anthropic.APIError>): { type?: string; message: string } {
  return { type: error.type ?? undefined, message: error.apiMessage ?? '' };
}

function streamErrorMessage(detail: { type?: string; message: string }, partial: boolean): string {
  const what = detail.type === 'overloaded_error' ? 'The model service is overloaded' : 'The model service reported an error';
  const kept = partial ? ' What arrived is kept; send again to retry.' : '';
  return `${what} mid-answer${detail.message ? `: ${detail.message}` : ''}.${kept}`;
}
