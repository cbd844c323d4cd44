import { usePanesStore } from '../terminal/panesStore';
import { useLayoutStore } from './layoutStore';
import { tabTitle } from './tabTitle';

/** The window (or browser tab) is named after the active tab, like other terminals. */
export function syncWindowTitle(): () => void {
  const update = () => {
    const { tabs, activeTabId } = useLayoutStore.getState();
    const tab = tabs.find((candidate) => candidate.id === activeTabId);
    const title = tab ? `${tabTitle(tab, usePanesStore.getState().panes)} — Tandem` : 'Tandem';
    if (document.title !== title) document.title = title;
  };
  update();
  const unsubscribeLayout = useLayoutStore.subscribe(update);
  const unsubscribePanes = usePanesStore.subscribe(update);
  return () => {
    unsubscribeLayout();
    unsubscribePanes();
  };
}
