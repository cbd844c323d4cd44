import { followPointerDrag } from './pointerDrag';
import type { KeyboardEvent, PointerEvent, RefObject } from 'react';
import { useLayoutStore } from './layoutStore';
import type { NodePath, SplitDirection } from './layoutTree';

interface DividerProps {
  tabId: string;
  path: NodePath;
  /** Resizes children `index` and `index + 1`. */
  index: number;
  direction: SplitDirection;
  sizes: number[];
  containerRef: RefObject<HTMLDivElement | null>;
}

const MIN_PANE_PIXELS = 48;
const KEYBOARD_STEP = 0.05;

/** Drag (or arrow keys) moves the boundary between two neighbours; double-click evens them out. */
export function Divider({ tabId, path, index, direction, sizes, containerRef }: DividerProps) {
  const setSizes = useLayoutStore((state) => state.setSizes);
  const horizontal = direction === 'row';

  const childElements = (): [HTMLElement, HTMLElement] | undefined => {
    const children = containerRef.current?.querySelectorAll<HTMLElement>(':scope > .split__child');
    const first = children?.[index];
    const second = children?.[index + 1];
    return first && second ? [first, second] : undefined;
  };

  const commit = (firstFraction: number) => {
    const pairTotal = (sizes[index] ?? 1) + (sizes[index + 1] ?? 1);
    const next = [...sizes];
    next[index] = pairTotal * firstFraction;
    next[index + 1] = pairTotal * (1 - firstFraction);
    setSizes(tabId, path, next);
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    const elements = childElements();
    if (!elements) return;
    event.preventDefault();
    const target = event.currentTarget;
    target.setPointerCapture(event.pointerId);
    const [first, second] = elements;
    const firstRect = first.getBoundingClientRect();
    const secondRect = second.getBoundingClientRect();
    const start = horizontal ? firstRect.left : firstRect.top;
    const span = horizontal ? secondRect.right - firstRect.left : secondRect.bottom - firstRect.top;
    if (span <= 0) return;
    let latest = 0;
    followPointerDrag(
      target,
      (move) => (latest = (horizontal ? move.clientX : move.clientY) - start),
      () => {
        const min = Math.min(MIN_PANE_PIXELS, span / 2);
        commit(Math.min(span - min, Math.max(min, latest)) / span);
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const back = horizontal ? 'ArrowLeft' : 'ArrowUp';
    const forward = horizontal ? 'ArrowRight' : 'ArrowDown';
    if (event.key !== back && event.key !== forward) return;
    event.preventDefault();
    event.stopPropagation();
    const pairTotal = (sizes[index] ?? 1) + (sizes[index + 1] ?? 1);
    const current = (sizes[index] ?? 1) / pairTotal;
    commit(Math.min(0.95, Math.max(0.05, current + (event.key === forward ? KEYBOARD_STEP : -KEYBOARD_STEP))));
  };

  return (
    <div
      className={`divider divider--${direction}`}
      data-testid="divider"
      role="separator"
      aria-orientation={horizontal ? 'vertical' : 'horizontal'}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onDoubleClick={() => commit(0.5)}
      onKeyDown={onKeyDown}
    />
  );
}
