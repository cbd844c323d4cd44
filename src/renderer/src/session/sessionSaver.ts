import { engine } from '../app/engine';
import { useLayoutStore } from '../layout/layoutStore';
import { usePanesStore } from '../terminal/panesStore';
import { currentSessionLayout, rememberLayout } from './sessionLayout';

const CHANGE_DEBOUNCE_MS = 400;
/** The engine adds cwd and scrollback when saving, so save now and then even without changes. */
const PERIODIC_SAVE_MS = 30_000;

let enabled = false;
let lastSent = '';

/** Off while the session is being (re)built, so a half-built layout never overwrites the saved one. */
export function setSessionSavingEnabled(value: boolean): void {
  enabled = value;
}

export function saveSessionNow(force = true): void {
  if (!enabled) return;
  const layout = currentSessionLayout();
  const text = JSON.stringify(layout);
  rememberLayout(layout);
  if (!force && text === lastSent) return;
  const connection = engine();
  if (connection.status !== 'open') return;
  lastSent = text;
  connection.request('session.save', layout).catch(() => {
    lastSent = '';
  });
}

export function startSessionSaving(): () => void {
  let timer = 0;
  const onChange = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => saveSessionNow(false), CHANGE_DEBOUNCE_MS);
  };
  // A new tab or split is saved at once (changes of one task coalesced): a window closed right
  // after it must not lose it. Pane churn (states, directories for tab titles) is debounced.
  let layoutTimer = 0;
  const unsubscribeLayout = useLayoutStore.subscribe((state, previous) => {
    if (state.tabs === previous.tabs && state.activeTabId === previous.activeTabId) return;
    window.clearTimeout(layoutTimer);
    layoutTimer = window.setTimeout(() => saveSessionNow(false), 0);
  });
  const unsubscribePanes = usePanesStore.subscribe(onChange);
  const interval = window.setInterval(() => saveSessionNow(true), PERIODIC_SAVE_MS);
  const onUnload = () => saveSessionNow(true);
  window.addEventListener('beforeunload', onUnload);
  return () => {
    window.clearTimeout(timer);
    window.clearTimeout(layoutTimer);
    window.clearInterval(interval);
    window.removeEventListener('beforeunload', onUnload);
    unsubscribeLayout();
    unsubscribePanes();
  };
}
