import { useUiStore } from '../app/uiStore';

/** The latest confirmation of an action ("Command copied"), for a moment; announced, never focused. */
export function StatusFlash() {
  const text = useUiStore((state) => state.statusFlash?.text ?? '');
  return (
    <span className="status-bar__item status-bar__flash" data-testid="status-flash" role="status" aria-live="polite">
      {text}
    </span>
  );
}
