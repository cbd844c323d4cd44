/**
 * Follows a drag that began with a pointerdown on `target` (which has captured the pointer):
 * every move goes to `onMove`, at most once per animation frame; release or cancel ends it.
 * While it lasts the body carries the `resizing` class (no text selection, the resize cursor).
 */
export function followPointerDrag(
  target: HTMLElement,
  onMove: (event: PointerEvent) => void,
  onFrame: () => void,
  onEnd?: () => void,
): void {
  let frame = 0;
  const move = (event: PointerEvent) => {
    onMove(event);
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      onFrame();
    });
  };
  const end = () => {
    if (frame) cancelAnimationFrame(frame);
    target.removeEventListener('pointermove', move);
    target.removeEventListener('pointerup', end);
    target.removeEventListener('pointercancel', end);
    document.body.classList.remove('resizing');
    onEnd?.();
  };
  document.body.classList.add('resizing');
  target.addEventListener('pointermove', move);
  target.addEventListener('pointerup', end);
  target.addEventListener('pointercancel', end);
}
