import { useBlocksStore } from '../blocks/blocksStore';
import { useAiPanelStore } from './aiPanelStore';
import { useConversationStore } from './conversationStore';
import { blocksToOffer, finishedWatermark } from './shareOffer';

function knownBlocks() {
  return Object.values(useBlocksStore.getState().byId);
}

/** The AI input lost focus: blocks finishing from now on are "commands you ran since". */
export function noteInputLeft(): void {
  const panel = useAiPanelStore.getState();
  // An offer still unanswered keeps its start, so its commands are offered again next time.
  if (panel.shareOffer) return;
  panel.setInputLeftAt(finishedWatermark(knownBlocks()));
}

/** The AI input got focus back: offer what finished meanwhile (the agent's own steps excluded). */
export function offerCommandsRunSince(): void {
  const panel = useAiPanelStore.getState();
  const offered = blocksToOffer({
    blocks: knownBlocks(),
    since: panel.inputLeftAt,
    conversation: useConversationStore.getState().conversation,
    attached: panel.attachments,
  });
  panel.setShareOffer(offered.map((block) => block.id));
}

export function answerShareOffer(share: boolean): void {
  const panel = useAiPanelStore.getState();
  if (share && panel.shareOffer) panel.attach(panel.shareOffer);
  panel.setShareOffer(undefined);
  panel.setInputLeftAt(finishedWatermark(knownBlocks()));
  panel.requestInputFocus();
}

/** Sending a message answers an open offer with "no". */
export function dropShareOffer(): void {
  const panel = useAiPanelStore.getState();
  if (panel.shareOffer) panel.setShareOffer(undefined);
}
