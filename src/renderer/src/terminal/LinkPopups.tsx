import { useEffect, useRef, type KeyboardEvent } from 'react';
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
 * Asked before a link whose text names another destination opens: both are shown, Cancel
 * has the focus (Enter cancels), Esc or a click outside cancels, and the keyboard goes back
 * to the terminal either way.
 */
function LinkConfirmDialog({ target, text }: { target: string; text: string }) {
  const answer = useLinkStore((state) => state.answer);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);

  const dialogRef = useRef<HTMLDivElement>(null);

  // Modal: the keyboard stays in the dialog until it is answered. (The click that opened it
  // ends on the terminal, which takes focus on click.)
  useEffect(() => {
    cancelRef.current?.focus();
    const keepFocus = (event: FocusEvent) => {
      const dialog = dialogRef.current;
      if (!dialog || !useLinkStore.getState().confirm) return;
      if (!(event.target instanceof Node) || !dialog.contains(event.target)) cancelRef.current?.focus();
    };
    document.addEventListener('focusin', keepFocus);
    return () => document.removeEventListener('focusin', keepFocus);
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      answer(false);
    } else if (event.key === 'Tab') {
      // Two buttons: Tab and Shift+Tab go from one to the other, never out of the dialog.
      event.preventDefault();
      (document.activeElement === cancelRef.current ? openRef : cancelRef).current?.focus();
    }
  };

  return (
    <div className="overlay" onMouseDown={() => answer(false)}>
      <div
        ref={dialogRef}
        className="link-confirm"
        data-testid="link-confirm"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="link-confirm-title"
        aria-describedby="link-confirm-body"
        onMouseDown={(event) => event.stopPropagation()}
        onKeyDown={onKeyDown}
      >
        <h2 id="link-confirm-title" className="link-confirm__title">
          This link goes somewhere else than its text says
        </h2>
        <div id="link-confirm-body">
          <p className="link-confirm__label">Its text shows</p>
          <code className="link-confirm__url" data-testid="link-confirm-text">
            {text}
          </code>
          <p className="link-confirm__label">but it opens</p>
          <code className="link-confirm__url link-confirm__url--target" data-testid="link-confirm-target">
            {displayTarget(target)}
          </code>
        </div>
        <div className="link-confirm__actions">
          <button type="button" ref={cancelRef} data-testid="link-confirm-cancel" onClick={() => answer(false)}>
            Cancel
          </button>
          <button type="button" ref={openRef} className="button--primary" data-testid="link-confirm-open" onClick={() => answer(true)}>
            Open
          </button>
        </div>
      </div>
    </div>
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
