import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../src/main/agent/backends/modelBackend';
import { Conversation } from '../../src/main/agent/conversation/conversation';
import { estimateMessagesTokens } from '../../src/main/agent/conversation/conversationHistory';
import { imageTokens, messageImages } from '../../src/main/agent/vision/imageTokens';
import { IMAGE_SLACK, imagesLeftOut, KEPT_IMAGES, LEFT_OUT_IMAGE, withRecentImages } from '../../src/main/agent/vision/recentImages';
import { encodePng } from '../../src/main/desktop/raster/pngEncoding';

// A request carries only the newest screenshots; older ones are left out in steps (so a
// prefix cache survives most requests), their description text kept, the history untouched.

function png(shade: number): string {
  return encodePng({ width: 64, height: 36, data: Buffer.alloc(64 * 36 * 4, shade) }).toString('base64');
}

/** A conversation's history after `count` screenshot steps, each asked for and answered. */
function screenshotHistory(count: number): AgentMessage[] {
  const messages: AgentMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'watch the installer' }] }];
  for (let n = 1; n <= count; n++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `s${n}`, name: 'screenshot', input: { target: 'screen' } }] });
    messages.push({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: `s${n}`,
          content: [
            { type: 'text', text: `Screenshot ${n} of screen 0` },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png(n) } },
          ],
        },
      ],
    });
  }
  return messages;
}

/** Each tool result's parts as the test reads them: its text, or "image N" by the shade it was drawn with. */
function resultParts(messages: AgentMessage[]): string[][] {
  return messages.flatMap((message) =>
    message.content.flatMap((part) =>
      part.type === 'tool_result' && typeof part.content !== 'string'
        ? [part.content.map((inner) => (inner.type === 'text' ? inner.text : `image ${part.tool_use_id.slice(1)}`))]
        : [],
    ),
  );
}

describe('which images a request leaves out', () => {
  it(`keeps ${KEPT_IMAGES} to ${KEPT_IMAGES + IMAGE_SLACK} of the newest: nothing left out up to ${KEPT_IMAGES + IMAGE_SLACK}, then the cut moves every ${IMAGE_SLACK + 1} images`, () => {
    expect(KEPT_IMAGES).toBe(3);
    expect(IMAGE_SLACK).toBe(1);
    const leftOut = Array.from({ length: 11 }, (_, count) => imagesLeftOut(count));
    expect(leftOut).toEqual([0, 0, 0, 0, 0, 2, 2, 4, 4, 6, 6]);
    for (let count = 0; count <= 40; count++) {
      const sent = count - imagesLeftOut(count);
      expect(sent).toBeGreaterThanOrEqual(Math.min(count, KEPT_IMAGES));
      expect(sent).toBeLessThanOrEqual(KEPT_IMAGES + IMAGE_SLACK);
    }
  });

  it('without slack the cut moves with every image; a larger slack moves it less often', () => {
    expect([3, 4, 5, 6].map((count) => imagesLeftOut(count, 3, 0))).toEqual([0, 1, 2, 3]);
    expect([5, 6, 7, 8, 9, 10].map((count) => imagesLeftOut(count, 2, 3))).toEqual([0, 4, 4, 4, 4, 8]);
  });
});

describe('the messages a request sends', () => {
  it('the 5th screenshot: the two oldest images become a note after their own text, the newest three go as they are', () => {
    const history = screenshotHistory(5);
    const before = JSON.stringify(history);
    const sent = withRecentImages(history);
    expect(resultParts(sent)).toEqual([
      ['Screenshot 1 of screen 0', LEFT_OUT_IMAGE],
      ['Screenshot 2 of screen 0', LEFT_OUT_IMAGE],
      ['Screenshot 3 of screen 0', 'image 3'],
      ['Screenshot 4 of screen 0', 'image 4'],
      ['Screenshot 5 of screen 0', 'image 5'],
    ]);
    expect(LEFT_OUT_IMAGE).toContain('take a new screenshot');
    // The history keeps every image (the panel shows them); messages without a left-out image are not copied.
    expect(JSON.stringify(history)).toBe(before);
    expect(sent[0]).toBe(history[0]);
    expect(sent.at(-1)).toBe(history.at(-1));
  });

  it('between two cuts each request starts with the whole previous one, so a prefix cache keeps it', () => {
    const requests = Array.from({ length: 12 }, (_, index) => withRecentImages(screenshotHistory(index + 1)));
    let cuts = 0;
    for (let n = 1; n < requests.length; n++) {
      const previous = JSON.stringify(requests[n - 1]).slice(0, -1);
      const samePrefix = JSON.stringify(requests[n]).startsWith(previous);
      const cut = imagesLeftOut(n + 1) !== imagesLeftOut(n);
      expect(samePrefix).toBe(!cut);
      if (cut) cuts++;
    }
    // 12 screenshots: cuts at the 5th, 7th, 9th and 11th.
    expect(cuts).toBe(4);
  });

  it('the conversation sends the pruned history and estimates its size from it; its own history keeps every image', () => {
    const conversation = new Conversation({ surroundings: () => ({}) as never, emit: () => {} });
    const history = screenshotHistory(5);
    for (const message of history) conversation.appendToHistory(message.role, message.content);
    const sent = conversation.historyWithin(1_000_000);
    expect(messageImages(sent)).toHaveLength(3);
    const oneImage = imageTokens(messageImages(history)[0]!);
    const saved = estimateMessagesTokens(history) - estimateMessagesTokens(sent);
    // Two images fewer, two short notes more.
    expect(saved).toBeGreaterThan(2 * oneImage - 2 * LEFT_OUT_IMAGE.length);
    expect(saved).toBeLessThan(2 * oneImage);
    expect(messageImages(conversation.historyWithin(1_000_000))).toHaveLength(3);
    conversation.dispose();
  });
});
