import type { ConversationView } from '../../../shared/agent';
import type { Block } from '../../../shared/blocks';

/** The most blocks one offer proposes (a message carries at most 20 attachments). */
export const MAX_OFFERED_BLOCKS = 10;

export interface ShareOfferInput {
  /** Every block the renderer knows, any pane. */
  blocks: readonly Block[];
  /**
   * The newest end time (engine clock) among blocks finished when the AI input last lost
   * focus; undefined until it had focus once, and then nothing is offered.
   */
  since: number | undefined;
  conversation: ConversationView | undefined;
  /** Block ids already waiting as attachments. */
  attached: readonly string[];
  limit?: number;
}

/**
 * Where "since" starts: the latest end among finished blocks, on the engine's clock like
 * the blocks compared with it later (the page may run on another machine than the engine).
 */
export function finishedWatermark(blocks: readonly Block[]): number {
  let latest = 0;
  for (const block of blocks) if (block.endedAt !== undefined && block.endedAt > latest) latest = block.endedAt;
  return latest;
}

/** Blocks the conversation already knows: plan steps the agent ran, `! cmd` blocks, blocks attached to messages. */
export function conversationBlockIds(conversation: ConversationView | undefined): Set<string> {
  const ids = new Set<string>();
  for (const item of conversation?.items ?? []) {
    if (item.role === 'plan') {
      for (const step of item.plan.steps) if (step.blockId) ids.add(step.blockId);
    } else if (item.role === 'user') {
      for (const attachment of item.attachments) ids.add(attachment.blockId);
    } else if (item.role === 'tool' && item.blockId) {
      ids.add(item.blockId);
    }
  }
  return ids;
}

/**
 * AI-first flow: back in the AI input after working in the terminal, the user is offered the
 * commands that finished meanwhile — not those the agent ran, not those already shared or
 * attached, not blocks without a command line. Oldest first, at most `limit` (the newest).
 */
export function blocksToOffer({ blocks, since, conversation, attached, limit = MAX_OFFERED_BLOCKS }: ShareOfferInput): Block[] {
  if (since === undefined) return [];
  const known = conversationBlockIds(conversation);
  const waiting = new Set(attached);
  const offered = blocks
    .filter(
      (block) =>
        block.endedAt !== undefined &&
        block.endedAt > since &&
        block.command.trim() !== '' &&
        !known.has(block.id) &&
        !waiting.has(block.id),
    )
    .sort((a, b) => (a.endedAt ?? 0) - (b.endedAt ?? 0));
  return offered.slice(Math.max(0, offered.length - limit));
}
