import type { KeyboardEvent, PointerEvent } from 'react';
import { followPointerDrag } from '../layout/pointerDrag';
import { useAiPanelStore } from './aiPanelStore';
import { DEFAULT_PANEL_WIDTH, MIN_PANEL_WIDTH } from './panelPreferences';

const KEYBOARD_STEP = 24;

/**
 * The panel's left edge: drag it, or focus it and use Left/Right (Home restores the default
 * width, as does a double-click). The panes re-fit through their own resize observers.
 */
export function PanelResizeHandle() {
  const width = useAiPanelStore((state) => state.width);
  const setWidth = useAiPanelStore((state) => state.setWidth);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    const target = event.currentTarget;
    target.setPointerCapture(event.pointerId);
    const startX = event.clientX;
    const startWidth = useAiPanelStore.getState().width;
    let latest = startWidth;
    followPointerDrag(
      target,
      // The panel is on the right: moving its edge left makes it wider.
      (move) => (latest = startWidth + (startX - move.clientX)),
      () => setWidth(latest, false),
      () => setWidth(latest, true),
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = useAiPanelStore.getState().width;
    let next: number | undefined;
    if (event.key === 'ArrowLeft') next = current + KEYBOARD_STEP;
    else if (event.key === 'ArrowRight') next = current - KEYBOARD_STEP;
    else if (event.key === 'Home') next = DEFAULT_PANEL_WIDTH;
    if (next === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    setWidth(next, true);
  };

  return (
    <div
      className="ai-panel__resize"
      data-testid="ai-panel-resize"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the AI panel (Left and Right arrows)"
      aria-valuenow={width}
      aria-valuemin={MIN_PANEL_WIDTH}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onDoubleClick={() => setWidth(DEFAULT_PANEL_WIDTH, true)}
      onKeyDown={onKeyDown}
    />
  );
}
