import { useBlocksStore } from '../blocks/blocksStore';
import { useAiPanelStore } from './aiPanelStore';
import { answerShareOffer } from './shareOfferFlow';

/** Back from the terminal: "Share the N commands you ran since?" Yes attaches them. */
export function ShareOfferBar() {
  const offer = useAiPanelStore((state) => state.shareOffer);
  const blocks = useBlocksStore((state) => state.byId);
  if (!offer) return null;
  const count = offer.length;
  const commands = offer.map((id) => blocks[id]?.command).filter(Boolean).join('\n');
  return (
    <div className="ai-share" data-testid="share-offer" data-count={count} role="group" aria-label="Share commands" title={commands}>
      <span className="ai-share__text">Share the {count === 1 ? 'command' : `${count} commands`} you ran since?</span>
      <button type="button" className="button--primary" data-testid="share-yes" onClick={() => answerShareOffer(true)}>
        Yes
      </button>
      <button type="button" data-testid="share-no" onClick={() => answerShareOffer(false)}>
        No
      </button>
    </div>
  );
}
