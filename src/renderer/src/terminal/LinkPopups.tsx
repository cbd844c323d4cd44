import { ConfirmDialog } from '../dialogs/ConfirmDialog';
import { isMac } from '../platform/platform';
import { useLinkStore, type LinkHover } from './linkStore';
import { displayTarget } from './linkText';

/** Long targets are cut in the tip (the confirm dialog shows them whole). */
const TIP_TARGET_MAX_CHARS = 300;
/** Distance of the tip from the pointer, in CSS pixels. */
const TIP_OFFSET_PX = 14;

export const OPEN_CLICK_LABEL = isMac ? '⌘-click' : 'Ctrl+click';

/** The hint under a link's target: how to open it, or why it does not open. */
export function linkHint(hover: Pick<LinkHover, 'openable' | 'textDiffers'>): string {
  if (!hover.openable) return 'Tandem opens only http, https and mailto links';
  if (hover.textDiffers) return `${OPEN_CLICK_LABEL} to open — its text shows another address, you will be asked first`;
  return `${OPEN_CLICK_LABEL} to open`;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Where the link's target is shown, near the pointer (never under the pointer: it takes no mouse events). */
function LinkHoverTip({ hover }: { hover: LinkHover }) {
  const below = hover.y < window.innerHeight - 90;
  const right = hover.x < window.innerWidth / 2;
  const style = {
    ...(below ? { top: hover.y + TIP_OFFSET_PX } : { bottom: window.innerHeight - hover.y + TIP_OFFSET_PX }),
    ...(right ? { left: hover.x + TIP_OFFSET_PX } : { right: window.innerWidth - hover.x + TIP_OFFSET_PX }),
  };
  return (
    <div
      className={`link-tip${hover.textDiffers || !hover.openable ? ' link-tip--warning' : ''}`}
      data-testid="link-tip"
      data-openable={hover.openable}
      data-text-differs={hover.textDiffers}
      role="tooltip"
      style={style}
    >
      <span className="link-tip__target" data-testid="link-tip-target">
        {cut(displayTarget(hover.target), TIP_TARGET_MAX_CHARS)}
      </span>
      <span className="link-tip__hint" data-testid="link-tip-hint">
        {linkHint(hover)}
      </span>
    </div>
  );
}

/**
 * Asked before a link whose text names another destination opens: both are shown, and the
 * keyboard goes back to the terminal whatever the answer. (The click that opened it ends on
 * the terminal, which takes focus on click: the dialog takes it back.)
 */
function LinkConfirmDialog({ target, text }: { target: string; text: string }) {
  const answer = useLinkStore((state) => state.answer);
  return (
    <ConfirmDialog
      testId="link-confirm"
      confirmTestId="link-confirm-open"
      className="link-confirm"
      title="This link goes somewhere else than its text says"
      confirmLabel="Open"
      confirmKind="primary"
      onAnswer={answer}
    >
      <p className="link-confirm__label">Its text shows</p>
      <code className="link-confirm__url" data-testid="link-confirm-text">
        {text}
      </code>
      <p className="link-confirm__label">but it opens</p>
      <code className="link-confirm__url link-confirm__url--target" data-testid="link-confirm-target">
        {displayTarget(target)}
      </code>
    </ConfirmDialog>
  );
}

/** The hover tip of terminal links and the open question, over everything else. */
export function LinkPopups() {
  const hover = useLinkStore((state) => state.hover);
  const confirm = useLinkStore((state) => state.confirm);
  return (
    <>
      {hover && !confirm && <LinkHoverTip hover={hover} />}
      {confirm && <LinkConfirmDialog key={`${confirm.target}\n${confirm.text}`} target={confirm.target} text={confirm.text} />}
    </>
  );
}
