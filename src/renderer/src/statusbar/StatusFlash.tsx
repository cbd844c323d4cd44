import { useEffect, useState } from 'react';
import { useUiStore } from '../app/uiStore';

const SHOWN_FOR_MS = 2_000;

/** The latest confirmation of an action ("Command copied"), for a moment; announced, never focused. */
export function StatusFlash() {
  const flash = useUiStore((state) => state.statusFlash);
  const [shown, setShown] = useState<number | undefined>();

  useEffect(() => {
    if (!flash) return;
    setShown(flash.serial);
    const timer = window.setTimeout(() => setShown(undefined), SHOWN_FOR_MS);
    return () => window.clearTimeout(timer);
  }, [flash]);

  return (
    <span className="status-bar__item status-bar__flash" data-testid="status-flash" role="status" aria-live="polite">
      {flash && shown === flash.serial ? flash.text : ''}
    </span>
  );
}
