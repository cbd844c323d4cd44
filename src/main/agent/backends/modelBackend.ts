/**
 * The one small interface every model backend implements. Messages use the Anthropic
 * content-block shape (text, tool_use, tool_result) as the neutral format; a backend for
 * another protocol converts at its edge.
 */

export type AgentContent =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: ToolResultContent; is_error?: boolean };

/** A tool's result: text, or (a screenshot) text and PNG images, in Anthropic's shape. */
export type ToolResultContent = string | ToolResultPart[];

export type ToolResultPart = { type: 'text'; text: string } | ImagePart;

export interface ImagePart {
  type: 'image';
  source: { type: 'base64'; media_type: 'image/png'; data: string };
}

/** The text of a result, its images left out. */
export function resultText(content: ToolResultContent): string {
  return typeof content === 'string' ? content : content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

export interface AgentMessage {
  role: 'user' | 'assistant';
  content: AgentContent[];
}

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: { type: 'object'; [key: string]: unknown };
}

/** Anthropic's computer-use tool (beta): the model sees a display of this size and names points in it. */
export interface ComputerToolDefinition {
  type: 'computer_20250124';
  name: 'computer';
  display_width_px: number;
  display_height_px: number;
}

/** The beta the `computer_20250124` tool needs. */
export const COMPUTER_USE_BETA = 'computer-use-2025-01-24';

export interface ModelRequest {
  model: string;
  system: string;
  messages: AgentMessage[];
  tools: ToolDefinition[];
  /** Offered besides `tools` (Anthropic only), when the model can use it. */
  computerTool?: ComputerToolDefinition;
  maxTokens: number;
}

export interface StreamHandlers {
  /** Text as it streams. */
  text(delta: string): void;
  /** A complete tool call (its input fully received and parsed). */
  toolUse(call: { id: string; name: string; input: unknown }): void;
  /** The request body exactly as it goes to the SDK ("what was sent"), before the request starts. */
  sent?(body: object): void;
}

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ModelResult {
  content: AgentContent[];
  stopReason: string;
  usage: ModelUsage;
}

/** The model picker does not wait longer for the endpoint's list (it falls back to the catalog). */
export const MODEL_LIST_TIMEOUT_MS = 5_000;
/** More models than this in an endpoint's list are left out of the picker. */
export const MAX_LISTED_MODELS = 500;

export interface ModelBackend {
  readonly kind: 'anthropic' | 'openai-compatible';
  /** Rejects with a ModelError; `signal` aborts the request and the stream. */
  stream(request: ModelRequest, handlers: StreamHandlers, signal: AbortSignal): Promise<ModelResult>;
  /** The model ids the endpoint offers (its `/v1/models`); rejects when it does not answer. */
  listModels(signal: AbortSignal): Promise<string[]>;
}
