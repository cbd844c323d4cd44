import type { AgentMessage, ImagePart } from '../backends/modelBackend';

/**
 * Tokens an image costs a model, for the context gauge and budget: Anthropic's published rule,
 * width × height / 750, for the size sent (1280×720 → 1229 tokens). OpenAI-compatible
 * models count tiles instead and come out in the same range for images this size; a PNG whose
 * size cannot be read counts as a full 1280×1280 image.
 */
export const IMAGE_PIXELS_PER_TOKEN = 750;
const UNKNOWN_IMAGE_TOKENS = Math.ceil((1280 * 1280) / IMAGE_PIXELS_PER_TOKEN);

export function imageTokens(image: ImagePart): number {
  const size = pngSize(image.source.data);
  return size ? Math.ceil((size.width * size.height) / IMAGE_PIXELS_PER_TOKEN) : UNKNOWN_IMAGE_TOKENS;
}

/** The width and height in a base64 PNG's IHDR chunk (bytes 16–23), without decoding the rest. */
export function pngSize(base64: string): { width: number; height: number } | undefined {
  const head = Buffer.from(base64.slice(0, 32), 'base64');
  if (head.length < 24 || head.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/** Every image in the messages' tool results. */
export function messageImages(messages: readonly AgentMessage[]): ImagePart[] {
  return messages.flatMap((message) =>
    message.content.flatMap((part) => (part.type === 'tool_result' && typeof part.content !== 'string' ? part.content.filter((inner) => inner.type === 'image') : [])),
  );
}
