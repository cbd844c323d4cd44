import type { AgentContent, AgentMessage } from '../backends/modelBackend';

/**
 * A request carries at least this many of the conversation's newest images (the screen now,
 * the one before an action to compare it with, and one more), and at most
 * KEPT_IMAGES + IMAGE_SLACK; the older ones are left out (about 1,230 tokens each at 1280×720).
 */
export const KEPT_IMAGES = 3;
/**
 * Images are left out in steps, not one per new screenshot: once more than KEPT_IMAGES +
 * IMAGE_SLACK would be sent, the older ones go down to KEPT_IMAGES. A cut changes the earlier
 * messages, which a prefix cache (OpenAI's automatic one, a local server's) must then read
 * again; so the cut moves with every (IMAGE_SLACK + 1)th screenshot, not with every one.
 */
export const IMAGE_SLACK = 1;

/** What stands in a request for an image left out; the result's own text (what the screenshot showed) stays before it. */
export const LEFT_OUT_IMAGE =
  `[The image of this screenshot is left out of this request to save context: only the newest ${KEPT_IMAGES} to ${KEPT_IMAGES + IMAGE_SLACK} screenshots are sent. ` +
  'The screen may have changed since; take a new screenshot to see it now.]';

/**
 * How many of `count` images, oldest first, a request leaves out: none up to kept + slack,
 * then at each (slack + 1)th image the cut moves so that `kept` remain. A function of the
 * count alone, so every request of a conversation cuts in the same place until the next step.
 */
export function imagesLeftOut(count: number, kept = KEPT_IMAGES, slack = IMAGE_SLACK): number {
  const firstCut = kept + slack + 1;
  if (count < firstCut) return 0;
  const period = slack + 1;
  const lastCut = firstCut + Math.floor((count - firstCut) / period) * period;
  return lastCut - kept;
}

/**
 * The messages as a request sends them: the images of tool results older than the newest
 * ones (imagesLeftOut) replaced by LEFT_OUT_IMAGE. The history itself is not changed (the
 * panel shows every image); messages without a left-out image are the same objects.
 */
export function withRecentImages(messages: readonly AgentMessage[], kept = KEPT_IMAGES, slack = IMAGE_SLACK): AgentMessage[] {
  let count = 0;
  for (const message of messages) for (const part of message.content) count += imagesIn(part);
  let toLeaveOut = imagesLeftOut(count, kept, slack);
  if (toLeaveOut === 0) return [...messages];
  return messages.map((message) => {
    if (toLeaveOut === 0 || !message.content.some((part) => imagesIn(part) > 0)) return message;
    const content = message.content.map((part): AgentContent => {
      if (toLeaveOut === 0 || part.type !== 'tool_result' || typeof part.content === 'string') return part;
      return {
        ...part,
        content: part.content.map((inner) => {
          if (inner.type !== 'image' || toLeaveOut === 0) return inner;
          toLeaveOut--;
          return { type: 'text', text: LEFT_OUT_IMAGE };
        }),
      };
    });
    return { ...message, content };
  });
}

function imagesIn(part: AgentContent): number {
  return part.type === 'tool_result' && typeof part.content !== 'string' ? part.content.filter((inner) => inner.type === 'image').length : 0;
}
